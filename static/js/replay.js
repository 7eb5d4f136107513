// Entry point of the hand replay pages (templates/lobby/_replay.html): the player lives in ./replay/.
import { startReplay } from "./replay/player.js";

const root = document.getElementById("replay");
if (root) startReplay(root);
