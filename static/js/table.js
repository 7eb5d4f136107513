// Entry point of the live table page (templates/lobby/table.html): the client lives in ./table/.
import { start } from "./table/client.js";

start(document.getElementById("table"), { random: Math.random });
