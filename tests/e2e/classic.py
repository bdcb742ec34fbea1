"""The classic Notebook (nbclassic), served by the tests' JupyterLab server at ``/nbclassic/``:
open a notebook, run its cells, and run code in its kernel through the page's ``Jupyter``
object, as ``NotebookPage`` does through JupyterLab's app."""

from __future__ import annotations

from .lab import KERNEL_IDLE_TIMEOUT_MS, NotebookPage

# runs code on the page's kernel; resolves to its stdout once the kernel is idle again (its
# shell reply can come before the output on iopub), rejects with its error
_EXECUTE_JS = """(code) => new Promise((resolve, reject) => {
  let out = '';
  let error = null;
  let replied = false;
  let idle = false;
  const done = () => {
    if (!replied || !idle) return;
    if (error) reject(new Error(error));
    else resolve(out);
  };
  Jupyter.notebook.kernel.execute(code, {
    iopub: {
      output: (msg) => {
        if (msg.header.msg_type === 'stream') out += msg.content.text;
        if (msg.header.msg_type === 'error') error = msg.content.ename + ': ' + msg.content.evalue;
      },
      status: (msg) => {
        if (msg.content.execution_state !== 'idle') return;
        idle = true;
        done();
      },
    },
    shell: { reply: (msg) => {
      if (msg.content.status !== 'ok') error ??= msg.content.ename + ': ' + msg.content.evalue;
      replied = true;
      done();
    } },
  }, { silent: false, store_history: false });
})"""


class ClassicNotebook(NotebookPage):
    """One notebook open in nbclassic (``python_json`` and ``wait_python`` as NotebookPage's)."""

    def open(self) -> ClassicNotebook:
        self.page.goto(f"{self.lab.url}/nbclassic/notebooks/{self.name}")
        # the kernel connected and the widgets extension's manager made: cells run before it
        # (it loads after the page, later on a busy machine) open widget models nobody receives
        self.page.wait_for_function(
            """() => window.Jupyter?.notebook?.kernel?.is_connected()
              && Jupyter.notebook.kernel.widget_manager !== undefined""",
            timeout=KERNEL_IDLE_TIMEOUT_MS,
        )
        return self

    def run_all(self) -> None:
        """Run every cell; wait until each has run (stops at the first error)."""
        self.page.evaluate("() => Jupyter.notebook.execute_all_cells()")
        self.page.wait_for_function(
            """() => Jupyter.notebook.get_cells().every(
              (c) => c.cell_type !== 'code' || typeof c.input_prompt_number === 'number')""",
            timeout=KERNEL_IDLE_TIMEOUT_MS,
        )
        errors = self.page.locator(".output_error")
        if errors.count():
            raise AssertionError(f"a cell raised:\n{errors.first.inner_text()}")

    def execute(self, code: str) -> str:
        return str(self.page.evaluate(_EXECUTE_JS, code))
