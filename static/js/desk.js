// The reviewer's desk: a "Copy" button puts its data-copy text (a Transaction ID) on
// the clipboard and says so for a moment; without clipboard access, the text is selected.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const text = button.dataset.copy;
  const done = () => {
    const label = button.textContent;
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = label; }, 1500);
  };
  const select = () => {
    const code = document.getElementById("round-id");
    if (code) window.getSelection().selectAllChildren(code);
  };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, select);
  else select();
});
