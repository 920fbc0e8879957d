// Module setup for trainmem.js, in a file because the Content-Security-Policy forbids inline
// scripts. Bracket syntax keeps the names under Closure.
'use strict';
(function () {
  var canvas = document.getElementById('canvas');
  var status = document.getElementById('status');
  function showError(text) {
    status.textContent = text;
    status.setAttribute('data-state', 'error');
  }
  canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });
  // An embedded card (#…&embed=1, in another page's iframe) is the card only: the wheel over it
  // must not scroll the frame's document down to the text copy of the results under the canvas.
  var embedded = function () { return /(^|[#&])embed=1(&|$)/.test(window.location.hash); };
  document.documentElement.classList.toggle('embed', embedded());
  window.addEventListener('hashchange', function () {
    document.documentElement.classList.toggle('embed', embedded());
  });
  canvas.addEventListener('webglcontextlost', function (e) {
    e.preventDefault();
    showError('The graphics context was lost. Reload the page to continue.');
  });
  if (typeof WebAssembly !== 'object') {
    showError('This browser cannot run WebAssembly, which trainmem needs.');
  }
  window['Module'] = {
    'canvas': canvas,
    'print': function () {},
    'printErr': function (text) { console.warn(text); },
    'onAbort': function () { showError('trainmem stopped unexpectedly. Reload the page to try again.'); }
  };
})();
