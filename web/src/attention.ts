// A turn that comes while the tab is in the background: "Your turn" in the
// tab's title and a short chime (unless the sound is muted), so a player
// reading another tab knows to come back. The title is the page's own again
// once the tab is seen or the turn has passed.
import { sound } from "./sound";
import { t } from "./i18n";

export class Attention {
  private own = ""; // the page's title while the notice stands in for it
  private onVisible = () => {
    if (document.visibilityState === "visible") this.clear();
  };

  constructor() {
    document.addEventListener("visibilitychange", this.onVisible);
  }

  // Each state: whether it was, and is, my turn to move.
  state(wasMine: boolean, mine: boolean) {
    if (!mine) return this.clear();
    if (wasMine || document.visibilityState === "visible") return;
    sound("turn");
    if (!this.own) this.own = document.title;
    document.title = t("attention.your_turn", { title: this.own });
  }

  clear() {
    if (!this.own) return;
    document.title = this.own;
    this.own = "";
  }

  close() {
    this.clear();
    document.removeEventListener("visibilitychange", this.onVisible);
  }
}
