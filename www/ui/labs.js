// The lab switcher in the header (Particles | Training | Depth): a tab list built from main.js's
// table (WAI-ARIA tabs pattern: click, or Left/Right/Home/End to move and activate). Each tab
// names its lab (`data-lab`) and its panel (`aria-controls`); texts for one lab carry
// `data-for-lab`. It only shows the chosen lab's panel and texts and reports the choice; main.js
// decides what runs.

export class LabTabs {
  /**
   * @param {Record<string, { title: string }>} table the labs, in order (the first is selected)
   * @param {(lab: string) => void} onSelect called when the user picks a lab
   */
  constructor(table, onSelect) {
    this.tabs = Object.entries(table).map(([id, { title }], i) => {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.id = `tab-${id}`;
      tab.dataset.lab = id;
      tab.setAttribute('aria-controls', `lab-${id}`);
      tab.setAttribute('aria-selected', String(i === 0));
      if (i > 0) tab.tabIndex = -1;
      tab.textContent = title;
      return tab;
    });
    document.querySelector('.lab-tabs').replaceChildren(...this.tabs);
    for (const tab of this.tabs) {
      tab.addEventListener('click', () => onSelect(tab.dataset.lab));
      tab.addEventListener('keydown', (e) => {
        const i = this.tabs.indexOf(tab);
        let j = null;
        if (e.key === 'ArrowRight') j = (i + 1) % this.tabs.length;
        else if (e.key === 'ArrowLeft') j = (i + this.tabs.length - 1) % this.tabs.length;
        else if (e.key === 'Home') j = 0;
        else if (e.key === 'End') j = this.tabs.length - 1;
        if (j === null) return;
        e.preventDefault();
        e.stopPropagation();
        this.tabs[j].focus();
        onSelect(this.tabs[j].dataset.lab);
      });
    }
  }

  /** Shows `lab`'s panel, subtitle and citation; hides the other labs'. */
  show(lab) {
    for (const tab of this.tabs) {
      const on = tab.dataset.lab === lab;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      document.getElementById(tab.getAttribute('aria-controls')).hidden = !on;
    }
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-for-lab]'))) el.hidden = el.dataset.forLab !== lab;
  }
}
