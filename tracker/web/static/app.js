// The one piece of script: a short id is filled in from the name as it is typed, until the
// id is edited by hand. Without script the id is simply typed.
document.querySelectorAll("input[data-slug-to]").forEach(function (source) {
  var target = document.getElementById(source.dataset.slugTo);
  if (!target) return;
  var touched = target.value !== "";
  target.addEventListener("input", function () { touched = true; });
  source.addEventListener("input", function () {
    if (touched) return;
    target.value = source.value.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  });
});
