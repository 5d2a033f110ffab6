// The share card a listing's link shows where it is shared (Open Graph and
// Twitter card, CONTRACT §10): cover, title, description as plain text
// (the product page's meta description: Markdown and tags stripped, at
// most 160 characters) and the host — from the listing as the API gives it.

const limit = 160;

/** A description as the product page's meta description says it. */
export function plainDescription(md: string): string {
  const text = md
    .replace(/<[^>]*>/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|\*|_|~~|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  return (space > limit / 2 ? cut.slice(0, space) : cut).replace(/[ ,.;:]+$/, '') + '…';
}

export function ShareCard({ url, title, description, coverUrl }: { url: string; title: string; description?: string | null; coverUrl?: string | null }) {
  const host = new URL(url).host;
  return (
    <section aria-labelledby="share-card">
      <h2 id="share-card">Share card</h2>
      <p className="muted">What a link to the product page shows where it is shared.</p>
      <figure className="share-card">
        {coverUrl ? <img src={coverUrl} alt="" /> : <div className="share-card-blank" />}
        <figcaption>
          <span className="muted">{host}</span>
          <strong>{title}</strong>
          {description && <span>{plainDescription(description)}</span>}
        </figcaption>
      </figure>
    </section>
  );
}
