// ---- Files: drop anywhere, paste, "Open files…" ----------------------------------------------
// Collects the files a user gives the page and hands them to the app as (name, bytes) pairs:
// window['tmFilesSink'] once the app installed it (src/platform/files_web.cpp), the queue until
// then. Bytes are read as they are (a pickled memory snapshot stays binary) and capped at
// 16 MiB + 1 byte: the app refuses larger files with a message, the tab is not flooded.
(function () {
  'use strict';
  var LIMIT = 16 * 1024 * 1024 + 1;
  window['tmFilesQueue'] = window['tmFilesQueue'] || [];

  function hand(files) {
    if (!files.length) return;
    if (window['tmFilesSink']) window['tmFilesSink'](files);
    else Array.prototype.push.apply(window['tmFilesQueue'], files);
  }

  function readAll(fileList) {
    var list = Array.prototype.slice.call(fileList || []);
    if (!list.length) return;
    Promise.all(list.map(function (file) {
      return file.slice(0, LIMIT).arrayBuffer().then(function (buffer) {
        return { 'name': file.name, 'bytes': new Uint8Array(buffer) };
      }, function () {
        return { 'name': file.name, 'bytes': new Uint8Array(0) };
      });
    })).then(hand);
  }

  function hasFiles(e) {
    var types = e.dataTransfer && e.dataTransfer.types;
    return !!types && Array.prototype.indexOf.call(types, 'Files') >= 0;
  }

  window.addEventListener('dragover', function (e) {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    document.body.classList.add('dropping');
  });
  window.addEventListener('dragleave', function (e) {
    if (e.target === document.documentElement || e.target === document.body ||
        e.relatedTarget === null) document.body.classList.remove('dropping');
  });
  window.addEventListener('drop', function (e) {
    document.body.classList.remove('dropping');
    if (!e.dataTransfer || !e.dataTransfer.files || !e.dataTransfer.files.length) return;
    e.preventDefault();
    readAll(e.dataTransfer.files);
  });

  // Pasted files always; pasted text only while no text field of the app has the keyboard.
  window.addEventListener('paste', function (e) {
    var data = e.clipboardData;
    if (!data) return;
    if (data.files && data.files.length) {
      readAll(data.files);
      return;
    }
    if (window['tmTextInputActive']) return;
    var text = data.getData('text/plain');
    if (!text || !text.trim()) return;
    var bytes = new TextEncoder().encode(text.length > LIMIT ? text.slice(0, LIMIT) : text);
    hand([{ 'name': 'pasted text', 'bytes': bytes }]);
  });

  var input = document.createElement('input');
  input.type = 'file';
  input.multiple = true;
  input.id = 'file-input';
  input.hidden = true;
  input.setAttribute('aria-label', 'Open job files');
  input.addEventListener('change', function () {
    readAll(input.files);
    input.value = '';
  });
  document.addEventListener('DOMContentLoaded', function () { document.body.appendChild(input); });
  if (document.body) document.body.appendChild(input);
  window['tmOpenFilePicker'] = function () { input.click(); };
})();
