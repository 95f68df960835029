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

// A Warcry battle form: the points and fighters picked, counted as the boxes are ticked
// (the server draws the limit and checks it; without script the roster's total is shown).
document.querySelectorAll("fieldset[data-muster]").forEach(function (side) {
  var limit = parseInt(side.dataset.muster, 10);
  var points = side.querySelector("output[data-points-total]");
  var fighters = side.querySelector("output[data-fighters-total]");
  if (!points) return;
  var boxes = side.querySelectorAll("input[data-points]");
  function count() {
    var total = 0, picked = 0;
    boxes.forEach(function (box) {
      if (box.checked) { total += parseInt(box.dataset.points, 10) || 0; picked += 1; }
    });
    points.textContent = total;
    fighters.textContent = picked;
    var over = side.querySelector("[data-over]");
    if (over) over.hidden = !(total > limit || picked > 15);
  }
  points.parentNode.hidden = false;
  boxes.forEach(function (box) { box.addEventListener("change", count); });
  count();
});

// A form that destroys something asks first (data-confirm holds the question). Without
// script the form is sent as it is.
// A button may ask a question of its own instead (data-confirm on the button).
document.querySelectorAll("form[data-confirm]").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    var asker = event.submitter && event.submitter.dataset.confirm ? event.submitter : form;
    if (!window.confirm(asker.dataset.confirm)) event.preventDefault();
  });
});
document.querySelectorAll("button[data-confirm]").forEach(function (button) {
  if (button.form && button.form.dataset.confirm) return;  // the form asks (above)
  button.addEventListener("click", function (event) {
    if (!window.confirm(button.dataset.confirm)) event.preventDefault();
  });
});

// "Copy the link": the text of the element data-copy names, onto the clipboard.
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  var source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) { button.hidden = true; return; }
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      button.textContent = "Copied";
    });
  });
});
