// Entry point of the anywidget bundle (built into cctviz/widget/static/widget.js).
import "./widget.css";

export { default } from "./widget.js";
