/** Stands in for a SPEC.md screen until its feature is built. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <section className="flex flex-col gap-2">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="text-muted-foreground">This screen is not built yet.</p>
    </section>
  );
}
