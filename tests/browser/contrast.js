// Every visible text of the page whose colour stands out from its background by less than
// WCAG's contrast ratio: 4.5:1, or 3:1 for large text (24 px, or 18.66 px and bold). The
// background is the first one not transparent among the element and its ancestors (a
// translucent one laid over those under it). A control turned off (disabled) is not counted,
// as WCAG counts it not; nor is what an SVG picture draws (its maps and boards).
() => {
  function parse(text) {
    var m = /rgba?\(([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)(?:[, /]+([\d.]+%?))?\)/.exec(text);
    if (!m) return null;
    var alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : +m[4];
    return [+m[1], +m[2], +m[3], alpha];
  }
  function over(top, bottom) {  // `top` laid over an opaque `bottom`
    var a = top[3];
    return [0, 1, 2].map(function (i) { return top[i] * a + bottom[i] * (1 - a); }).concat(1);
  }
  function background(element) {
    var layers = [];
    for (var node = element; node && node.nodeType === 1; node = node.parentElement) {
      var colour = parse(getComputedStyle(node).backgroundColor);
      if (colour && colour[3] > 0) {
        layers.push(colour);
        if (colour[3] >= 1) break;
      }
    }
    var result = [255, 255, 255, 1];  // the canvas under everything
    if (layers.length && layers[layers.length - 1][3] >= 1) result = layers.pop();
    while (layers.length) result = over(layers.pop(), result);
    return result;
  }
  function luminance(colour) {
    var c = colour.slice(0, 3).map(function (v) {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  function ratio(a, b) {
    var x = luminance(a), y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  function off(element) {
    return element.closest("svg, [disabled], [aria-disabled=true], fieldset[disabled]") !== null;
  }
  function shown(element) {
    var style = getComputedStyle(element);
    if (style.visibility !== "visible" || parseFloat(style.opacity) === 0) return false;
    var box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0 &&
      box.left < document.documentElement.scrollWidth;
  }
  function name(element) {
    var parts = [];
    for (var node = element; node && node.nodeType === 1 && parts.length < 4; node = node.parentElement) {
      parts.unshift(node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") +
        (node.classList.length ? "." + Array.prototype.join.call(node.classList, ".") : ""));
    }
    return parts.join(" > ");
  }
  var found = [], checked = 0;
  document.querySelectorAll("body *").forEach(function (element) {
    var own = Array.prototype.some.call(element.childNodes, function (child) {
      return child.nodeType === 3 && child.textContent.trim();
    });
    var field = /^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName) &&
      !/^(hidden|checkbox|radio|range|color|file|image)$/.test(element.type) &&
      (element.value || element.placeholder);
    if ((!own && !field) || off(element) || !shown(element)) return;
    var style = getComputedStyle(element);
    var colour = parse(style.color);
    if (!colour) return;
    var back = background(element);
    if (colour[3] < 1) colour = over(colour, back);
    var size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight, 10) >= 700;
    var least = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    var got = ratio(colour, back);
    checked += 1;
    if (got < least) {
      found.push({
        where: name(element),
        text: (element.value || element.textContent || "").trim().replace(/\s+/g, " ").slice(0, 60),
        ratio: Math.round(got * 100) / 100,
        least: least,
        colour: style.color,
        background: "rgb(" + back.slice(0, 3).map(Math.round).join(", ") + ")",
      });
    }
  });
  return {found: found, checked: checked};
}
