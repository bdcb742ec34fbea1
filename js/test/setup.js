// jsdom has no canvas: getContext answers null, as a browser without canvas support would,
// instead of jsdom's "not implemented" console error. Tests of the canvas backend install a fake.
HTMLCanvasElement.prototype.getContext = () => null;
