/*
 * annotate-yaml: adds annotation wasm.krmfn.dev/touched: "true" to every item of a YAML
 * ResourceList in kpt's wire shape (block style, items at column 0 as "- ", two-space indents,
 * every item carrying metadata.annotations, as kpt's reader annotations guarantee). A line-based
 * edit, not a YAML parser: enough to check that modules reading kpt's YAML work end to end.
 */
#include <stdio.h>
#include <string.h>

int main(void) {
  static char line[1 << 16];
  int in_items = 0, count = 0;
  while (fgets(line, sizeof line, stdin)) {
    fputs(line, stdout);
    if (strncmp(line, "items:", 6) == 0) in_items = 1;
    else if (line[0] != ' ' && line[0] != '-' && line[0] != '\n') in_items = 0;
    if (in_items && strcmp(line, "    annotations:\n") == 0) {
      fputs("      wasm.krmfn.dev/touched: \"true\"\n", stdout);
      count++;
    }
  }
  fprintf(stderr, "annotated %d resources\n", count);
  return 0;
}
