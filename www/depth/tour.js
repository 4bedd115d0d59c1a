// The depth lab's guided tour (ui/tour.js): one plain sentence per card, the panel it points at,
// and the link its "Do it" opens. Each sentence says what that link shows
// (tests/e2e/claims.json names the check of each).

export const TOUR = {
  title: 'Tour: depth and rank collapse',
  cards: [
    { text: 'Each curve shows how different the tokens still are after each layer; reaching the bottom means they all became the same.', panel: 'section[aria-labelledby="dp-res-heading"]', link: 'version=7&lab=depth&preset=collapse-small' },
    { text: 'Pure attention, with no skip connections and no MLP, makes all tokens identical within a few layers.', panel: 'section[aria-labelledby="dp-res-heading"]', link: 'version=7&lab=depth&preset=collapse-small&variants=san' },
    { text: 'Add skip connections and the collapse stops: the SAN+skip curve stays up.', panel: 'section[aria-labelledby="dp-res-heading"]', link: 'version=7&lab=depth&preset=collapse-small&variants=san,san-skip' },
    { text: 'An attention map says where a head looks; the similarity of its outputs says what it passes on. With these random weights the most alike pairs share a sentence about as often as chance (the dashed line); the Model tab’s trained encoder beats chance.', panel: 'section[aria-labelledby="dp-grid-heading"]', link: 'version=7&lab=depth&preset=context-text' },
  ],
};
