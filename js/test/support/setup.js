// jsdom has no canvas: getContext answers null, as a browser without canvas support would,
// instead of jsdom's "not implemented" console error. Tests of the canvas backend install a fake.
// (Tests run without a DOM, in node, have no canvas to quiet.)
if (typeof HTMLCanvasElement !== "undefined") HTMLCanvasElement.prototype.getContext = () => null;
