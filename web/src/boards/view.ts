// The seat's view each family's engine sends (src/<game>/text.cpp, the
// `view` of a state message): one type per family, told apart by `family`.
// Only what the app reads is written here; the server may send more.

// Whose turn: a seat, chance, everyone at once (Dice & Dominoes), nobody.
export type Actor = number | "chance" | "simultaneous" | null;

interface Common {
  phase: string;
  seat: number | null; // whose view (null: every hand shown)
  actor: Actor;
  waiting_for?: number[];
  winners?: number[]; // the game's winners, once over (sides or seats)
  winner_side?: number;
}

export interface LineHand {
  seat: number;
  side: number;
  count: number;
  tiles: string[] | null;
}
export interface LineHandResult {
  number: number;
  end: "domino" | "block";
  tied: boolean;
  winner_side: number | null;
  winner_seat: number | null;
  last_placer: number;
  leader: number;
  capicua: boolean;
  pips: number[];
  pip_points: number[];
  total: number[];
  bonuses: { bonus: string; side: number; points: number }[];
  wins_reset?: boolean;
  double_up_pending?: boolean;
  next_leader: { how: string; seat?: number | null; side?: number; seats?: number[]; chooser?: number; rule?: string };
}
export interface LineView extends Common {
  family: "line";
  hand_number: number;
  leader: number;
  line: string[];
  ends: [number, number] | null;
  opening?: number;
  hands: LineHand[];
  boneyard: number;
  sleeping: number;
  passes_in_row: number;
  must_lead?: string;
  lead_draws?: (string | null)[]; // each seat's tile drawn for this hand's lead
  drawn_for_lead?: string[]; // draw_after_deal: the tiles drawn, out of play
  scores: number[];
  target: number;
  single_hand?: boolean;
  scoring: string;
  block_tie: string;
  last_hand?: LineHandResult;
}

export interface Train {
  train: number | "M";
  owner: number | null;
  started: boolean;
  end: number;
  marker: boolean;
  tiles: string[];
  open_double: boolean;
}
export interface MexicanTrainView extends Common {
  family: "mexican-train";
  round: number;
  rounds: number;
  start_seat: number;
  engine?: string;
  engine_seat?: number | null;
  engine_draws?: number;
  trains?: Train[];
  open_doubles?: (number | "M")[];
  opening_turn?: boolean;
  drawn_tile?: string;
  drew_this_turn?: boolean;
  hands: { seat: number; count: number; tiles: string[] | null; side?: undefined }[];
  boneyard: number;
  scores: number[];
  last_round?: {
    round: number;
    end: "domino" | "blocked";
    out_seat: number | null;
    start_seat: number;
    engine: string;
    tiles_left: number[];
    penalty: number[];
  };
}

export interface Trick {
  leader: number;
  winner: number;
  tiles?: string[];
}
export interface Texas42HandResult {
  number: number;
  dealer: number;
  declarer: number;
  bid: number;
  bid_kind: string;
  bid_text: string;
  trumps: string;
  made: boolean;
  stopped_early: boolean;
  tricks_played: number;
  winner_side: number;
  last_trick_winner: number;
  points: [number, number];
  tricks: [number, number];
  gained: [number, number];
}
export interface Texas42View extends Common {
  family: "texas-42";
  hand_number: number;
  dealer: number | null;
  first_dealer_draw?: string[]; // each seat's tile drawn for the first deal
  bids: (string | null)[];
  high_bid: number;
  declarer: number | null;
  trumps: string | null;
  sitting_out?: number;
  redeals?: number; // deals thrown in when all passed
  hands: { seat: number; side: number; count: number; tiles: string[] | null }[];
  playable?: string[];
  trick: { seat: number; tile: string }[];
  tricks: Trick[];
  points_taken: [number, number];
  tricks_taken: [number, number];
  scores: [number, number];
  scoring: string;
  target: number;
  single_hand?: boolean;
  last_hand?: Texas42HandResult;
}

export interface DiceSeatRound {
  seat: number;
  laid: number;
  revealed: string[];
  discarded: string[];
  sent_back: string[];
  face_down: (string | null)[];
  special: string | null;
  drew: number;
  out: boolean;
}
export interface DicePlayer {
  seat: number;
  count: number;
  chips: number;
  tiles?: string[] | null;
  discards?: string[];
  best_special: string | null;
  submitted?: boolean;
  submission?: string;
}
export interface DiceDominoesView extends Common {
  family: "dice-and-dominoes";
  hand_number: number;
  hands: number; // how many hands the game has
  round: number;
  roller: number;
  match_points: [number, number] | null;
  kept_match_points: boolean;
  pot: number;
  ante: number;
  boneyard: number;
  unused: number;
  players: DicePlayer[];
  last_round?: {
    number: number;
    match_points: [number, number];
    roller: number;
    kept_match_points: boolean;
    top_special: string | null;
    top_seat: number | null;
    leftover_unused: number;
    chooser?: number;
    seats: DiceSeatRound[];
  };
  last_hand?: {
    number: number;
    rounds: number;
    how: string;
    pot: number;
    share: number;
    kept_in_pot: number;
    out: number[];
    winners: number[];
    net: number[];
    winning_special?: string;
  };
}

// A table still waiting: no view yet.
export interface NoView {
  family?: undefined;
  actor?: undefined;
  waiting_for?: undefined;
  scores?: undefined;
  winners?: undefined;
  winner_side?: undefined;
  ends?: undefined;
  hands?: undefined;
  players?: undefined;
}

export type GameView = LineView | MexicanTrainView | Texas42View | DiceDominoesView;
export type AnyView = GameView | NoView;
