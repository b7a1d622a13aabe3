// The application's own script, a few lines served from the binary (CSP script-src 'self'): a "Copy" button beside a
// read-only field puts the field's text on the clipboard. Without script the button stays hidden and the field can
// still be selected and copied by hand.
export const COPY_SCRIPT_PATH = '/app/assets/copy.js'

export const COPY_SCRIPT = `document.querySelectorAll('button[data-copy]').forEach(function (b) {
  var field = document.getElementById(b.getAttribute('data-copy'));
  if (!field || !navigator.clipboard) return;
  b.hidden = false;
  var said = b.textContent;
  b.addEventListener('click', function () {
    navigator.clipboard.writeText(field.value).then(function () {
      b.textContent = b.getAttribute('data-copied') || said;
      setTimeout(function () { b.textContent = said; }, 2000);
    });
  });
});
`
