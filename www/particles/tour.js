// The particle lab's guided tour (ui/tour.js): one plain sentence per card, the panel it points
// at, and the link its "Do it" opens. Each sentence says what that link shows, at the moment it
// opens on (`t=`) or by the end of the run (tests/e2e/claims.json names the check of each).

export const TOUR = {
  title: 'Tour: tokens as particles',
  cards: [
    { text: 'Each dot is a token; at every step it moves toward the tokens it pays attention to, and they gather into clusters: the 20 dots end as 5 clusters, one per corner.', panel: '.tokens-panel', link: 'version=7&preset=polytope' },
    { text: 'The heatmap is the attention P: row i says how much token i looks at each token. As time goes on every row becomes a 1 on one of two leaders, the smallest and the largest token, and 0 elsewhere: P turns Boolean.', panel: '.heatmap-panel', link: 'version=7&preset=leaders' },
    { text: 'Make the value matrix V = −I and attention pulls every token to the same point: they collapse, the cloud shrinking to a tenth of its size by t = 10 on the scale it started on.', panel: '.tokens-panel', link: 'version=7&preset=collapse' },
    { text: 'On the sphere, attention gathers the 64 tokens into a few clusters, three here, which last: none merges before the run ends at t = 30.', panel: '.tokens-panel', link: 'version=7&preset=sphere-sa-clusters' },
    { text: 'On the sphere a larger β sharpens attention and leaves more clusters: here, at β = 1, one cluster at t = 15, where the previous card’s β = 4 keeps three. Try the β slider in the model form.', panel: '.config-panel', link: 'version=7&preset=sphere-sa-clusters&beta=1&t=15' },
    { text: 'Metastability: two clusters form within a few time units and then hold for hundreds; the chart’s flat stretch shows it.', panel: '.chart-panel', link: 'version=7&preset=metastability' },
  ],
};
