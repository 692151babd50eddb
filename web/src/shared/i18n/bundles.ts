/**
 * The interface texts of one language, every namespace of `locales/<lng>/`, keyed by namespace
 * (the file's name). French is in the shell (the product's language, and the fallback of every
 * missing English key); English is a chunk of its own that only an English interface loads, so
 * that the first visit of a French user does not download it.
 */
export type Bundle = Record<string, Record<string, unknown>>;

export function bundleOf(files: Record<string, unknown>): Bundle {
  return Object.fromEntries(
    Object.entries(files).map(([file, texts]) => [
      file.slice(file.lastIndexOf('/') + 1, -'.json'.length),
      texts as Record<string, unknown>,
    ]),
  );
}
