// Español: the words after a game (its replay, the review of one's
// moves, the fairness check), merged into the catalogue by i18n.ts.
export const esAfter: Record<string, string> = {
  "review.which_hand": "Mano a revisar:",
  "fair.title": "¿Fue limpio el reparto?",
  "fair.explain":
    "Antes de repartir la primera ficha, el servidor fijó la mezcla y mostró a todos una huella de ella. Ahora que la partida terminó revela la clave de la mezcla, y tu navegador ha comprobado la clave con esa huella.",
  "fair.ok": "Comprobado: el reparto quedó fijado antes de jugar y nadie pudo cambiarlo durante la partida.",
  "fair.bad":
    "Atención: la clave no coincide con la huella mostrada antes del reparto. No se puede demostrar que este reparto fuera limpio.",
  "fair.seeded":
    "Esta mesa se creó con una semilla fija (para pruebas o estudio): su secreto sale de esa semilla, así que quien la conociera conocía el reparto. No es demostrablemente limpia.",
  "fair.unavailable":
    "Este navegador no puede hacer la comprobación: descarga el registro de la partida para comprobarlo en otro sitio.",
  "fair.numbers": "Los números, para comprobarlo a mano",
  "fair.commitment": "Huella mostrada antes del reparto (compromiso SHA-256)",
  "fair.secret": "Clave revelada ahora (el secreto)",
  "fair.seed": "Semilla de la mezcla (hecha con la clave y la aportación de cada jugador)",
  "fair.record": "Descargar el registro de la partida",
  "fair.cli": "Los programadores pueden comprobar el registro con: boneyard verify ARCHIVO",
  "replay.open": "Repetición",
  "replay.title": "Repetición",
  "replay.loading": "Cargando la repetición…",
  "replay.unavailable": "No se puede mostrar esta repetición",
  "replay.no_file": "No hay ningún archivo de partida cargado: elige uno en la entrada.",
  "replay.not_found":
    "No hay ninguna partida terminada en este enlace: puede estar mal escrito, o la partida aún se está jugando.",
  "replay.start": "Comienzo de la partida",
  "replay.deal": "Se reparten las fichas",
  "replay.roll": "Tirada de dados: {dice}",
  "replay.drawn": "Fichas robadas: {tiles}",
  "replay.chance": "Azar: {text}",
  "replay.move": "{who} juega {move}",
  "replay.step_label": "Paso",
  "replay.step": "Paso {n} de {of}",
  "replay.first": "Primer paso (Inicio)",
  "replay.prev": "Paso atrás (←)",
  "replay.next": "Paso adelante (→)",
  "replay.last": "Último paso (Fin)",
  "replay.prev_hand": "Al final de la mano anterior (Re Pág)",
  "replay.next_hand": "Al final de esta mano (Av Pág)",
  "replay.all_hands": "todas las manos a la vista: la partida ha terminado",
  "replay.lobby_title": "Repetir una partida",
  "replay.lobby_help":
    "Recorre paso a paso cualquier partida terminada desde su archivo (al final de la partida, «Descargar el registro de la partida»).",
  "replay.drop": "Suelta aquí un archivo de partida, o haz clic para elegirlo",
  "replay.not_json": "{name} no es un archivo de partida JSON",
  "review.button": "Calificar mis jugadas",
  "review.title": "Tus jugadas en la mano {n}",
  "review.thinking": "Analizando tus jugadas…",
  "review.hands_known":
    "Juzgadas por el resolvedor exacto con las manos conocidas: la mano ha terminado, así que todas las fichas son públicas.",
  "review.sampled":
    "Juzgado por lo que podías saber en cada jugada: {n} repartos compatibles, cada uno jugado a la perfección, promediados. Una jugada solo baja la nota si fue claramente peor, no solo por la suerte del reparto.",
  "review.face_up": "Boca arriba (todas las manos a la vista, no es la nota), esto habría ganado {more} {unit} más:",
  "review.own_view":
    "Juzgadas por nuestro bot más fuerte, que ve solo lo que tú podías ver en cada jugada, nunca las fichas ocultas (una estimación).",
  "review.scale":
    "Valor perdido frente a la mejor jugada, en {unit}: Buena hasta {good}, Imprecisión hasta {inaccuracy}, Error hasta {mistake}, Error grave si más.",
  "review.none": "No tuviste ninguna decisión en esta mano.",
  "review.grade": "Nota",
  "review.played": "Jugaste",
  "review.best": "Mejor valorada",
  "grade.level": "Igual de buena",
  "grade.level_help": "No es la jugada mejor valorada, pero la diferencia cabe en la suerte del reparto.",
  "review.same": "la misma",
  "review.lost": "Perdido ({unit})",
  "review.scale_counted":
    "Cada nota va por lo que la jugada costó con seguridad frente a la mejor valorada, en {unit}: su coste medio menos dos veces el ± de al lado, que es lo que la suerte del reparto podría explicar (se muestra como «seguro»). Buena hasta {good}, Imprecisión hasta {inaccuracy}, Error hasta {mistake}, Error grave si más. «Igual de buena»: otra jugada se valoró más, pero lo perdido con seguridad es 0.",
  "review.counted": "seguro {n}",
  "review.forced": "{n} jugada(s) forzada(s) sin nota.",
  "review.forced_one": "1 jugada forzada sin calificar.",
  "review.unsolved": "{n} decisión(es) demasiado difícil(es) de resolver a tiempo, sin nota.",
  "review.unsolved_one": "1 decisión demasiado difícil para el tiempo disponible, sin calificar.",
  "review.seat_button": "Revisar a {who}",
  "review.title_seat": "{who}: jugadas de la mano {n}",
  "review.left": "izquierda",
  "review.right": "derecha",
  "replay.prev_hand_round": "Al final de la ronda anterior (Re Pág)",
  "replay.next_hand_round": "Al final de esta ronda (Av Pág)",
  "review.which_hand_round": "Ronda a revisar:",
  "review.title_round": "Tus jugadas en la ronda {n}",
  "review.title_seat_round": "{who}: jugadas de la ronda {n}",
  // The end of a hand and of the game: what next, words explained.
  "summary.look_back": "Mirar atrás:",
  "summary.replay": "Repasar la partida jugada a jugada",
  "summary.went_out": "0 (dominó)",
  "glossary.tranque":
    "Un tranque es un juego cerrado: nadie puede colocar ficha, así que deciden los puntos que quedan en las manos.",
  "glossary.capicua": "Una capicúa es dominar con una ficha que entra por las dos puntas.",
  "glossary.mark":
    "Una marca es el premio de una mano: una apuesta de 30 a 42 cumplida gana 1 marca, y si no se cumple, 1 marca va al otro equipo; una apuesta de 2 marcas o más gana o cede esas marcas. El primer equipo que llega a {n} marcas gana la partida.",
  "glossary.more": "Más en las reglas",
};
