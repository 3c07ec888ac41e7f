/* Fluxx Adjudicator: progressive enhancement for the server-rendered pages.
 *
 * Everything here is optional: without it every form still posts and the server answers.
 * - The card picker: each zone's textarea (one card name per line) is drawn as cards, with a
 *   search box that matches English or Chinese names (cards from /api/cards, filtered here).
 *   A name no card has gets the server's own suggestions (what /api/cards/NAME answers), and
 *   text typed but not picked is never dropped: it is added when it names a card exactly, else
 *   the ruling is not asked for and the field says why.
 * - Adding and removing player seats in the editor.
 * - "Copy the link" on a ruling's permalink.
 * htmx (vendor/htmx.min.js) makes the forms answer inline; htmx.onLoad re-runs this setup on
 * the content it swaps in. No inline scripts: the Content Security Policy forbids them.
 */
(function () {
  "use strict";

  var catalogs = {}; // "fluxx+creepers" -> Promise of [card]
  var seen = {}; // card id -> card, of every catalog loaded: a chip keeps its name across editions
  var fuse = null; // Promise of the Fuse class (vendor/fuse.basic.min.mjs), loaded on first use
  var NUMBER_WORDS = {zero: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6",
                      seven: "7", eight: "8", nine: "9", ten: "10"};

  function normalize(text) {
    return String(text || "").normalize("NFKC").toLowerCase().replace(/[\s\p{P}\p{S}_]+/gu, "");
  }

  // What was typed, as card names are written: number words as digits ("hand limit one").
  function normalizeQuery(text) {
    return normalize(String(text || "").toLowerCase().replace(/[a-z]+/g, function (w) {
      return NUMBER_WORDS[w] || w;
    }));
  }

  function loadFuse(form) {
    if (!fuse && form.dataset.fuseUrl) {
      fuse = import(form.dataset.fuseUrl).then(function (m) { return m.default; })
        .catch(function () { return null; });
    }
    return fuse || Promise.resolve(null);
  }

  function fetchCards(url, edition) {
    return fetch(url + "?edition=" + encodeURIComponent(edition), {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(function (data) { return Array.isArray(data) ? data : (data.cards || data.results || []); })
      .catch(function () { return []; });
  }

  // The edition chosen and its expansions: the catalogs the game's cards come from.
  function decks(form) {
    var edition = (form.querySelector("[name=edition]") || {}).value || "fluxx";
    var expansions = Array.prototype.map.call(
      form.querySelectorAll("[name=expansions]:checked"), function (el) { return el.value; });
    return [edition].concat(edition === "fluxx" ? expansions : []);
  }

  // What the server suggests for a name no card has (GET /api/cards/suggest: the catalog's own
  // "did you mean"), the same suggestions a refused card gets, in the language typed.
  var asked = {}; // "fluxx+creepers|the sun" -> Promise of [name]
  function serverSuggestions(form, name) {
    var deck = decks(form);
    var key = deck.join("+") + "|" + normalize(name);
    if (!asked[key]) {
      var url = form.dataset.cardsUrl || "/api/cards";
      asked[key] = fetch(url + "/suggest?q=" + encodeURIComponent(name) + "&edition=" +
                         encodeURIComponent(deck[0]) + "&expansions=" +
                         encodeURIComponent(deck.slice(1).join(",")),
                         {headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : {}; })
        .then(function (data) { return data.card ? [data.card] : (data.suggestions || []); })
        .catch(function () { return []; });
    }
    return asked[key];
  }

  function loadCatalog(form) {
    var names = decks(form);
    var key = names.join("+");
    if (!catalogs[key]) {
      var url = form.dataset.cardsUrl || "/api/cards";
      catalogs[key] = Promise.all(names.map(function (e) { return fetchCards(url, e); }))
        .then(function (lists) {
          var byId = {};
          lists.forEach(function (list) { list.forEach(function (c) { byId[c.id] = c; }); });
          var cards = Object.keys(byId).map(function (id) { return byId[id]; })
            .filter(function (c) { return c.type !== "basic_rules"; });
          cards.forEach(function (c) {
            c._keys = [normalize(c.id), normalize(c.name.en), normalize(c.name.zh)];
            seen[c.id] = c;
          });
          return cards;
        });
    }
    return catalogs[key];
  }

  function resolve(cards, name) {
    var key = normalize(name);
    for (var i = 0; i < cards.length; i++) {
      if (cards[i]._keys.indexOf(key) >= 0) { return cards[i]; }
    }
    return null;
  }

  // Cards whose names contain what was typed (exact, then prefix, then anywhere); when few
  // do, Fuse.js adds the names closest to it, so a typo still finds the card ("Infaltion").
  function matches(cards, query, types, Fuse) {
    var q = normalizeQuery(query);
    var pool = types.length ? cards.filter(function (c) { return types.indexOf(c.type) >= 0; }) : cards;
    if (!q) { return pool.slice(0, 60); }
    var scored = [];
    pool.forEach(function (c) {
      var best = -1;
      c._keys.forEach(function (k) {
        var at = k.indexOf(q);
        if (k === q) { best = 3; }
        else if (at === 0) { best = Math.max(best, 2); } else if (at > 0) { best = Math.max(best, 1); }
      });
      if (best >= 0) { scored.push([best, c]); }
    });
    scored.sort(function (a, b) { return b[0] - a[0]; });
    var found = scored.map(function (s) { return s[1]; });
    if (Fuse && found.length < 5 && q.length >= 3) {
      new Fuse(pool, {keys: ["name.en", "name.zh", "id"], threshold: 0.4, ignoreLocation: true})
        .search(String(query)).forEach(function (r) {
          if (found.indexOf(r.item) < 0) { found.push(r.item); }
        });
    }
    return found.slice(0, 60);
  }

  function label(card, lang) {
    return lang === "zh" ? (card.name.zh || card.name.en) : (card.name.en || card.name.zh);
  }

  function other(card, lang) {
    return lang === "zh" ? card.name.en : card.name.zh;
  }

  /* One picker over one textarea. The textarea stays the source of truth (it is what the form
     sends); the picker rewrites it with card ids. */
  function Picker(textarea, form) {
    var lang = form.dataset.lang || "en";
    var types = (textarea.dataset.types || "").split(/\s+/).filter(Boolean);
    var box = document.createElement("div");
    box.className = "picker";
    var chips = document.createElement("div");
    chips.className = "chips";
    var input = document.createElement("input");
    input.type = "search";
    input.autocomplete = "off";
    input.placeholder = form.dataset.i18nSearch || "";
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-autocomplete", "list");
    // the zone's <label for> names the search box from now on
    input.id = textarea.id;
    textarea.id = textarea.id + "-text";
    var list = document.createElement("ul");
    list.className = "picker-list";
    list.setAttribute("role", "listbox");
    list.tabIndex = -1; // a scrolling list is a Tab stop in Chromium: it must not be one
    list.id = "pick-" + textarea.name.replace(/[^a-z0-9_-]/gi, "-");
    input.setAttribute("aria-controls", list.id);
    list.hidden = true;
    box.appendChild(chips);
    box.appendChild(input);
    box.appendChild(list);
    textarea.hidden = true;
    textarea.classList.add("enhanced");
    textarea.parentNode.insertBefore(box, textarea.nextSibling);

    var cards = [];
    var shown = [];
    var selected = -1;
    var Fuse = null;
    var fuseTried = false; // Fuse.js has arrived, or failed to: a name still unmatched is asked
    var note = document.createElement("p"); // why the text typed was not added
    note.className = "picker-note";
    note.id = list.id + "-note";
    note.setAttribute("role", "alert");
    note.hidden = true;
    box.insertBefore(note, list); // in the box, above the list that opens under it
    var errors = {}; // chip index -> {message, suggestions}: marked from the server's answer
    var typeNames = JSON.parse(form.dataset.typeNames || "{}");

    function names() {
      return textarea.value.split("\n").map(function (s) { return s.trim(); }).filter(Boolean);
    }

    function drawChips() {
      chips.textContent = "";
      names().forEach(function (name, index) {
        var card = resolve(cards, name);
        var chip = document.createElement("span");
        chip.className = "chip" + (card ? " t-" + card.type : (cards.length ? " unknown" : ""));
        var fault = errors[index];
        chip.dataset.card = card ? card.id : name;
        var text = document.createElement("span");
        // a card of another edition (the edition was switched): its name, said not to be here
        var known = card || seen[name];
        text.textContent = known ? label(known, lang) : name;
        if (!card && known && form.dataset.i18nOtherEdition) {
          chip.classList.add("other-edition");
          chip.title = form.dataset.i18nOtherEdition.replace("{name}", label(known, lang));
        }
        if (card && other(card, lang)) { chip.title = other(card, lang); }
        if (fault) {
          chip.classList.add("chip-error");
          chip.setAttribute("aria-invalid", "true");
          chip.title = fault.message;
        }
        var remove = document.createElement("button");
        remove.type = "button";
        remove.textContent = "×";
        remove.setAttribute("aria-label", (form.dataset.i18nRemove || "Remove {name}").replace("{name}", text.textContent));
        remove.addEventListener("click", function () {
          var all = names();
          all.splice(index, 1);
          textarea.value = all.join("\n");
          errors = {};
          drawChips();
          input.focus();
        });
        chip.appendChild(text);
        chip.appendChild(remove);
        if (fault) {
          // the server's suggestions, each a button that puts that card in the chip's place
          fault.suggestions.forEach(function (name) {
            var fix = document.createElement("button");
            fix.type = "button";
            fix.className = "chip-fix";
            fix.textContent = name;
            fix.addEventListener("click", function () { replaceAt(index, name); });
            chip.appendChild(fix);
          });
          if (fault.removable && form.dataset.i18nRemoveHere) {
            var out = document.createElement("button");
            out.type = "button";
            out.className = "chip-fix";
            out.textContent = form.dataset.i18nRemoveHere;
            out.addEventListener("click", function () { removeAt(index); });
            chip.appendChild(out);
          }
        }
        chips.appendChild(chip);
      });
    }

    function replaceAt(index, name) {
      var all = names();
      all[index] = name;
      textarea.value = all.join("\n");
      delete errors[index];
      drawChips();
      textarea.dispatchEvent(new Event("change", {bubbles: true}));
    }

    this.markError = function (index, message, suggestions, removable) {
      errors[index] = {message: message, suggestions: suggestions || [], removable: !!removable};
      drawChips();
    };

    this.clearErrors = function () { errors = {}; };

    function removeAt(index) {
      var all = names();
      all.splice(index, 1);
      textarea.value = all.join("\n");
      errors = {};
      drawChips();
      textarea.dispatchEvent(new Event("change", {bubbles: true}));
    }

    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      selected = -1;
    }

    function fits(card) { return !types.length || types.indexOf(card.type) >= 0; }

    // The card a name names exactly (case, spaces and punctuation aside), if it goes here.
    function exact(name) {
      var card = resolve(cards, name);
      return card && fits(card) ? card : null;
    }

    function say(message) {
      note.textContent = message || "";
      note.hidden = !message;
      if (message) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", note.id);
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    }

    // Nothing here matches what was typed: the server's suggestions, once Fuse.js has had its
    // say (a typo it finds needs no request).
    function suggestFromServer() {
      var typed = input.value;
      if (!fuseTried || normalize(typed).length < 2) { return; }
      serverSuggestions(form, typed).then(function (names) {
        if (input.value !== typed || shown.length) { return; }
        var found = [];
        names.forEach(function (name) {
          var card = resolve(cards, name);
          if (card && fits(card) && found.indexOf(card) < 0) { found.push(card); }
        });
        if (found.length) { drawOptions(found, form.dataset.i18nDidYouMean || ""); }
      });
    }

    function drawList() {
      shown = matches(cards, input.value, types, Fuse);
      drawOptions(shown, "");
      if (!shown.length && input.value) { suggestFromServer(); }
    }

    function drawOptions(options, heading) {
      shown = options;
      list.textContent = "";
      if (heading) {
        var head = document.createElement("li");
        head.className = "none";
        head.setAttribute("role", "presentation");
        head.textContent = heading;
        list.appendChild(head);
      }
      if (!shown.length) {
        var none = document.createElement("li");
        none.className = "none";
        // a card of another kind than this zone holds: say what it is ("Milk is a Keeper")
        var elsewhere = input.value ? matches(cards, input.value, [], Fuse)[0] : null;
        none.textContent = elsewhere && form.dataset.i18nWrongZone
          ? form.dataset.i18nWrongZone.replace("{name}", label(elsewhere, lang))
            .replace("{type}", typeNames[elsewhere.type] || elsewhere.type)
          : (form.dataset.i18nNomatch || "");
        list.appendChild(none);
      }
      shown.forEach(function (card, i) {
        var item = document.createElement("li");
        item.className = "t-" + card.type;
        item.id = list.id + "-" + i;
        item.dataset.index = String(i);
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", i === selected ? "true" : "false");
        item.dataset.card = card.id;
        var main = document.createElement("span");
        main.textContent = label(card, lang);
        var alt = document.createElement("span");
        alt.className = "alt";
        alt.textContent = other(card, lang) || "";
        item.appendChild(main);
        item.appendChild(alt);
        item.addEventListener("mousedown", function (event) {
          event.preventDefault(); // keep the focus in the search box
          add(card);
        });
        list.appendChild(item);
      });
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }

    function add(card) {
      var all = names();
      all.push(card.id);
      textarea.value = all.join("\n");
      input.value = "";
      say("");
      drawChips();
      close();
      textarea.dispatchEvent(new Event("change", {bubbles: true}));
    }

    function highlight(i) {
      selected = Math.max(0, Math.min(i, shown.length - 1));
      list.querySelectorAll("[role=option]").forEach(function (li) {
        var j = parseInt(li.dataset.index, 10);
        li.setAttribute("aria-selected", j === selected ? "true" : "false");
        if (j === selected) {
          li.scrollIntoView({block: "nearest"});
          input.setAttribute("aria-activedescendant", li.id);
        }
      });
    }

    // The list opens when the player types, clicks or presses Down, not when Tab passes by.
    input.addEventListener("input", function () { selected = -1; say(""); drawList(); });
    input.addEventListener("click", drawList);
    input.addEventListener("blur", close);
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown") { event.preventDefault(); if (list.hidden) { drawList(); } highlight(selected + 1); }
      else if (event.key === "ArrowUp") { event.preventDefault(); highlight(selected - 1); }
      else if (event.key === "Enter") {
        // Enter adds the suggestion chosen with the arrow keys, or the card the text names
        // exactly; never another card that merely resembles it ("Taxes" is not Taxation)
        if (!input.value.trim()) { return; } // nothing typed: Enter asks for the ruling
        event.preventDefault();
        var card = selected >= 0 && !list.hidden ? shown[selected] : exact(input.value);
        if (card) { add(card); } else { refuse(); }
      } else if (event.key === "Escape") { close(); }
      else if (event.key === "Backspace" && !input.value && names().length) {
        var all = names(); all.pop(); textarea.value = all.join("\n"); drawChips();
      }
    });

    // Text typed and not added: say so on the field, with the list of what it may be.
    function refuse() {
      var message = (form.dataset.i18nNotAdded || "").replace("{name}", input.value.trim());
      drawList();
      say(message);
    }

    // Before the ruling is asked for: add the text left in the box if it names a card
    // exactly; false (and the field says why) when it does not.
    this.commitPending = function () {
      if (!input.value.trim()) { return true; }
      var card = exact(input.value);
      if (card) { add(card); return true; }
      refuse();
      return false;
    };

    this.focus = function () { input.focus(); };

    this.reload = function () {
      loadFuse(form).then(function (loaded) {
        Fuse = loaded;
        fuseTried = true;
        if (!list.hidden) { drawList(); } // typed before Fuse.js arrived: a typo matches now
      });
      return loadCatalog(form).then(function (loaded) {
        cards = loaded;
        drawChips();
        if (!list.hidden) { drawList(); } // typed before the cards arrived: match them now
      });
    };
    drawChips();
    this.reload();
  }

  function setupEditor(form) {
    if (form.dataset.enhanced) { return; }
    form.dataset.enhanced = "1";
    var pickers = [];
    var byName = {}; // textarea name -> its picker
    form._pickerFor = function (name) { return byName[name]; };
    function enhance(root) {
      root.querySelectorAll("textarea.cardlist:not(.enhanced)").forEach(function (ta) {
        var picker = new Picker(ta, form);
        pickers.push(picker);
        byName[ta.name] = picker;
      });
      root.querySelectorAll(".remove-seat").forEach(function (button) {
        button.hidden = false;
        if (button.dataset.bound) { return; }
        button.dataset.bound = "1";
        button.addEventListener("click", function () {
          var seat = button.closest(".seat");
          var wasActive = seat.querySelector("input[type=radio]:checked");
          seat.remove();
          if (wasActive) {
            var first = form.querySelector(".seat input[type=radio]");
            if (first) { first.checked = true; }
          }
        });
      });
    }
    enhance(form);
    // Text left in a card box is part of the table the player means: it is added when it names
    // a card, else the ruling waits and the box says why (a pasted state replaces the boxes).
    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (submitter && submitter.getAttribute("formaction")) { return; } // "Load", not a ruling
      var pasted = form.querySelector("[name=state_text]");
      if (pasted && pasted.value.trim()) { return; }
      var refused = pickers.filter(function (p) { return !p.commitPending(); });
      if (refused.length) {
        event.preventDefault();
        event.stopImmediatePropagation(); // htmx's own submit listener must not send it
        refused[0].focus();
      }
    }, true);
    // another edition: the server's marks were about the other deck
    var reload = function () { pickers.forEach(function (p) { p.clearErrors(); p.reload(); }); };
    form.querySelectorAll("[name=edition], [name=expansions]").forEach(function (el) {
      el.addEventListener("change", reload);
    });
    var add = document.getElementById("add-seat");
    var template = document.getElementById("seat-template");
    if (add && template) {
      add.hidden = false;
      add.addEventListener("click", function () {
        var seats = form.querySelectorAll(".seat[data-seat]");
        var next = 0;
        seats.forEach(function (s) { next = Math.max(next, parseInt(s.dataset.seat, 10) + 1 || 0); });
        var holder = document.createElement("div");
        holder.innerHTML = template.innerHTML.split("__i__").join(String(next));
        var seat = holder.firstElementChild;
        document.getElementById("seats").appendChild(seat);
        enhance(seat);
        var name = seat.querySelector("input[type=text]");
        if (name) { name.focus(); }
      });
    }
  }

  function setupCopy(root) {
    root.querySelectorAll("button.copy-link[data-copy]").forEach(function (button) {
      if (!navigator.clipboard || button.dataset.bound) { return; }
      button.dataset.bound = "1";
      button.hidden = false;
      button.addEventListener("click", function () {
        var url = new URL(button.dataset.copy, window.location.href).href;
        navigator.clipboard.writeText(url).then(function () {
          button.textContent = button.dataset.done || button.textContent;
        });
      });
    });
  }

  // The server's errors at the cards they concern: "/players/1/hand/2" is the third chip of
  // the picker "players-1-hand"; the chip is marked, its suggestions are buttons.
  function markErrors(root) {
    var form = document.querySelector("form#editor");
    if (!form || !form._pickerFor) { return; }
    root.querySelectorAll(".error-item[data-path]").forEach(function (item) {
      var parts = item.dataset.path.split("/").slice(1);
      var index = parts.pop();
      if (!/^[0-9]+$/.test(index || "")) { return; }
      var picker = form._pickerFor(parts.join("-"));
      if (!picker) { return; }
      var message = (item.querySelector(".error-message") || {}).textContent || "";
      var suggestions = Array.prototype.map.call(
        item.querySelectorAll(".error-suggestions q"), function (q) {
          return q.dataset.value || q.textContent;  // the value itself, not its words
        });
      picker.markError(parseInt(index, 10), message, suggestions);
    });
    // the other place of a card held twice (a Surprise left in hand while it is in the chain):
    // its chip offers to take the card out of there
    root.querySelectorAll(".error-item[data-related]").forEach(function (item) {
      var message = (item.querySelector(".error-message") || {}).textContent || "";
      item.dataset.related.split(" ").forEach(function (path) {
        var parts = path.split("/").slice(1);
        var index = parts.pop();
        var picker = /^[0-9]+$/.test(index || "") && form._pickerFor(parts.join("-"));
        if (picker) { picker.markError(parseInt(index, 10), message, [], true); }
      });
    });
  }

  function setup(root) {
    root.querySelectorAll("form#editor").forEach(setupEditor);
    setupCopy(root);
    markErrors(root);
  }

  if (window.htmx) {
    window.htmx.onLoad(setup);
    // An inline ruling pushes its permalink; the editor's entry it leaves becomes the editor
    // holding that table (the server's X-Editor-Url), so Back returns to the table entered.
    // History misses reload the page (htmx-config refreshOnHistoryMiss): never a stale page.
    document.body.addEventListener("htmx:beforeSwap", function (event) {
      var xhr = event.detail && event.detail.xhr;
      var editorUrl = xhr && xhr.getResponseHeader("X-Editor-Url");
      if (editorUrl && window.location.pathname === "/") {
        window.history.replaceState(window.history.state, "", editorUrl);
      }
    });
  } else {
    document.addEventListener("DOMContentLoaded", function () { setup(document); });
  }
})();
