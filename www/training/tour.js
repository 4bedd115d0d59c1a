// The training lab's guided tour (ui/tour.js): one plain sentence per card, the panel it points
// at, and the link its "Do it" opens.

export const TOUR = {
  title: 'Tour: scan and snap',
  cards: [
    { text: 'A one-layer transformer learns to predict the next token; the heatmap shows how much its attention weighs each context token as training goes on.', panel: '.cn-panel', link: 'version=4&lab=training&preset=scan-snap' },
    { text: 'Scan: attention first leaves the common tokens that every class shares and moves to the distinctive ones.', panel: '.cn-panel', link: 'version=4&lab=training&preset=scan-snap&iterations=300' },
    { text: 'Snap: then the attention freezes; the chart’s curves go flat.', panel: '.tchart-panel', link: 'version=4&lab=training&preset=scan-snap&iterations=1000' },
    { text: 'The learning-rate ratio r = η_Y / η_Z decides when it snaps: a larger r freezes attention earlier, before it has become sharp.', panel: '.config-panel', link: 'version=4&lab=training&preset=scan-snap-sweep&ratio=10' },
  ],
};
