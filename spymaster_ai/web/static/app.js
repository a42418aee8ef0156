// The game page: moves are posted without a reload, the board is redrawn from the server's
// fragment, and while the AI thinks the page polls; a spinner shows once a wait passes 300 ms.
// Without JavaScript the same form posts and the server redirects back to the page.
(function () {
  "use strict";
  var game = document.getElementById("game");
  if (!game) { return; }
  var id = game.getAttribute("data-id");
  var spinnerTimer = null, pollTimer = null, busy = false;

  function area() { return document.getElementById("board-area"); }
  function attr(name) { var a = area(); return a ? a.getAttribute(name) : null; }

  function showSpinner(later) {
    clearTimeout(spinnerTimer);
    spinnerTimer = setTimeout(function () {
      var s = document.getElementById("spinner");
      if (s) { s.hidden = false; }
    }, later ? 300 : 0);
  }
  function hideSpinner() {
    clearTimeout(spinnerTimer);
    var s = document.getElementById("spinner");
    if (s) { s.hidden = true; }
  }
  function notice(text) {
    var n = document.getElementById("notice");
    if (!n) { return; }
    n.textContent = text || "";
    n.hidden = !text;
  }

  function redraw(message) {
    return fetch("/g/" + id + "/board", { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var old = area();
        var wasTyping = document.activeElement && document.activeElement.id === "move-text";
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.querySelector("#board-area");
        if (old && fresh) { old.replaceWith(fresh); }
        bind();
        if (message) { notice(message); }
        if (attr("data-thinking") === "true") {
          showSpinner(false);
          schedulePoll(400);
        } else {
          hideSpinner();
          if (attr("data-seat") === "false" && attr("data-over") !== "true") { schedulePoll(2000); }
          var input = document.getElementById("move-text");
          if (input && (wasTyping || !document.activeElement || document.activeElement === document.body)) { input.focus(); }
        }
      });
  }

  function schedulePoll(ms) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(function () { redraw(); }, ms);
  }

  function send(text) {
    if (busy) { return; }
    busy = true;
    notice("");
    showSpinner(true);
    var body = new URLSearchParams();
    body.set("text", text);
    body.set("version", attr("data-version"));
    fetch("/g/" + id + "/move", {
      method: "POST", credentials: "same-origin", body: body,
      headers: { "Accept": "application/json" }
    }).then(function (r) {
      return r.json().catch(function () { return { error: "the server's answer could not be read (status " + r.status + ")" }; });
    }).then(function (data) {
      busy = false;
      return redraw(data && data.error ? data.error : null);
    }).catch(function () {
      busy = false;
      hideSpinner();
      notice("the server could not be reached: nothing was played; try again");
    });
  }

  // The newest messages are at the bottom of the Messages box: keep it scrolled there.
  function scrollLog() {
    var log = document.getElementById("log");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  // The server sends the seat link as a path (it never repeats the request's Host header);
  // the page's own address is put before it here.
  function fillSeatLink() {
    var link = document.querySelector("input[data-path]");
    if (link) { link.value = window.location.origin + link.getAttribute("data-path"); }
  }

  function bind() {
    scrollLog();
    fillSeatLink();
    var form = document.getElementById("move-form");
    if (form && !form.dataset.bound) {
      form.dataset.bound = "1";
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        var submitter = ev.submitter;
        var input = document.getElementById("move-text");
        var text = submitter && submitter.name === "text" ? submitter.value : (input ? input.value : "");
        if (text && text.trim()) { send(text); }
      });
    }
    var cards = document.querySelectorAll("#board-area .board:not(.mini) .card");
    Array.prototype.forEach.call(cards, function (card) {
      card.addEventListener("click", function () {
        var kind = attr("data-prompt");
        if (!kind || kind === "clue" || kind === "sudden_death_wait" || card.getAttribute("aria-disabled")) { return; }
        send(card.getAttribute("data-label"));
      });
    });
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement && document.activeElement.tagName !== "INPUT") {
      var input = document.getElementById("move-text");
      if (input) { ev.preventDefault(); input.focus(); }
    }
  });

  bind();
  if (attr("data-thinking") === "true") { showSpinner(true); schedulePoll(400); }
  else if (attr("data-seat") === "false" && attr("data-over") !== "true") { schedulePoll(2000); }
})();
