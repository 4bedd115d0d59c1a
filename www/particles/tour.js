// The particle lab's guided tour (ui/tour.js): one plain sentence per card, the panel it points
// at, and the link its "Do it" opens.

export const TOUR = {
  title: 'Tour: tokens as particles',
  cards: [
    { text: 'Each dot is a token; at every step it moves toward the tokens it pays attention to, and they gather into clusters.', panel: '.tokens-panel', link: 'version=4&preset=polytope' },
    { text: 'The heatmap is the attention P: row i says how much token i looks at each token. As time goes on each row becomes a 1 on one leader and 0 elsewhere: P turns Boolean.', panel: '.heatmap-panel', link: 'version=4&preset=leaders' },
    { text: 'Make the value matrix V = −I and attention pulls every token to the same point: they collapse.', panel: '.tokens-panel', link: 'version=4&preset=collapse' },
    { text: 'On the sphere, attention gathers the tokens into a few clusters that last a long time before merging.', panel: '.tokens-panel', link: 'version=4&preset=sphere-sa-clusters' },
    { text: 'Metastability: two clusters form within a few time units and then hold for hundreds; the chart’s flat stretch shows it.', panel: '.chart-panel', link: 'version=4&preset=metastability' },
    { text: 'A larger β sharpens attention: more clusters, living longer. Try the β slider in the model form.', panel: '.config-panel', link: 'version=4&preset=polytope&beta=5' },
  ],
};
