// "Your player" (docs/server.md, Players): this browser's player may set a
// password, and a browser may take on a player made elsewhere by its name
// and password (a new key for this device, kept in localStorage like a new
// player's). Errors are said in the user's words: a wrong password, one too
// short.
import { api, ApiError, myPlayer, saveMyPlayer } from "./api";
import { h } from "./dom";
import { t } from "./i18n";

// The forms check for themselves (novalidate): the browser's own bubble
// would say nothing of what a password must be.
const bytes = (s: string) => new TextEncoder().encode(s).length;

// The password's length is checked here too (8 to 256 bytes, as the server).
function lengthError(pw: string): string {
  const n = bytes(pw);
  return n < 8 ? t("you.too_short") : n > 256 ? t("you.too_long") : "";
}

export function youPanel(changed: () => void): HTMLElement {
  const me = myPlayer();
  const panel = h(
    "section",
    { class: "card you", id: "you-panel", "aria-labelledby": "you-title" },
    h(
      "div",
      { class: "you-head" },
      h("h2", { id: "you-title" }, t("you.title")),
      h(
        "button",
        {
          class: "link",
          id: "you-close",
          type: "button",
          onclick: () => {
            panel.hidden = true;
            const open = document.getElementById("you-open");
            open?.setAttribute("aria-expanded", "false");
            open?.focus();
          },
        },
        t("common.close"),
      ),
    ),
  );
  if (me) {
    const pw = h("input", {
      id: "you-password",
      type: "password",
      autocomplete: "new-password",
      minlength: "8",
      required: true,
    }) as HTMLInputElement;
    const msg = h("p", { id: "you-password-msg", role: "status", "aria-live": "polite" });
    const save = h("button", { class: "primary", id: "you-password-save" }, t("you.set_password")) as HTMLButtonElement;
    panel.append(
      h("p", null, t("you.playing_as", { name: me.name })),
      h(
        "form",
        {
          class: "you-form",
          novalidate: true,
          onsubmit: async (e: Event) => {
            e.preventDefault();
            msg.className = "error";
            const bad = lengthError(pw.value);
            if (bad) {
              msg.textContent = bad;
              return;
            }
            save.disabled = true;
            try {
              await api.setPassword(me, pw.value);
              pw.value = "";
              msg.className = "ok";
              msg.textContent = t("you.password_set", { name: me.name });
            } catch (x) {
              msg.textContent =
                x instanceof ApiError && x.status === 403
                  ? t("you.not_yours")
                  : x instanceof ApiError && x.status === 429
                    ? t("you.too_many")
                    : String((x as Error).message);
            } finally {
              save.disabled = false;
            }
          },
        },
        h("label", { for: "you-password" }, t("you.password_help")),
        pw,
        save,
      ),
      msg,
    );
  } else {
    panel.append(h("p", { class: "muted" }, t("you.none_yet")));
  }
  // Another device's player on this one.
  const name = h("input", {
    id: "you-login-name",
    autocomplete: "username",
    maxlength: "32",
    required: true,
  }) as HTMLInputElement;
  const pw = h("input", {
    id: "you-login-password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  }) as HTMLInputElement;
  const err = h("p", { class: "error", id: "you-login-msg", role: "alert" });
  panel.append(
    h("h3", null, t(me ? "you.login_title_other" : "you.login_title")),
    h("p", { class: "muted" }, t(me ? "you.login_help_replace" : "you.login_help")),
    h(
      "form",
      {
        class: "you-form",
        novalidate: true,
        onsubmit: async (e: Event) => {
          e.preventDefault();
          err.textContent = "";
          if (!name.value.trim()) {
            err.textContent = t("you.name_needed");
            return;
          }
          if (!pw.value) {
            err.textContent = t("you.password_needed");
            return;
          }
          try {
            saveMyPlayer(await api.login(name.value, pw.value));
            changed();
          } catch (x) {
            err.textContent =
              x instanceof ApiError && x.status === 401
                ? t("you.wrong_password")
                : x instanceof ApiError && x.status === 429
                  ? t("you.too_many")
                  : String((x as Error).message);
          }
        },
      },
      h("label", { for: "you-login-name" }, t("you.player_name")),
      name,
      h("label", { for: "you-login-password" }, t("you.password")),
      pw,
      h("button", { class: "primary", id: "you-login" }, t("you.login")),
    ),
    err,
  );
  return panel;
}
