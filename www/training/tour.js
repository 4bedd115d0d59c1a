// The training lab's guided tour (ui/tour.js): one plain sentence per card, the panel it points
// at, and the link its "Do it" opens. Each sentence says what that link shows, at the iteration
// it opens on (`step=`) or by the end of the run (tests/e2e/claims.json names the check of each).

export const TOUR = {
  title: 'Tour: scan and snap',
  cards: [
    { text: 'A one-layer transformer learns to predict the next token; the heatmap shows how much its attention weighs each context token as training goes on.', panel: '.cn-panel', link: 'version=7&lab=training&preset=scan-snap' },
    { text: 'Scan: attention first leaves the common tokens that every class shares and moves to the distinctive ones; at iteration 15, paused here, it is under way.', panel: '.cn-panel', link: 'version=7&lab=training&preset=scan-snap&step=15' },
    { text: 'Snap: then the attention freezes; the chart’s curves go flat.', panel: '.tchart-panel', link: 'version=7&lab=training&preset=scan-snap&step=1000' },
    { text: 'The learning-rate ratio r = η_{Y} / η_{Z} decides when it snaps: a larger r freezes attention earlier, before it has become sharp (here r = 10 snaps before r = 1 and ends with a higher entropy).', panel: '.config-panel', link: 'version=7&lab=training&preset=scan-snap-sweep&ratio=10' },
  ],
};
