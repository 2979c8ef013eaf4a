/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the direct DIE reader (src/load/dwarf_raw.h) and
 * the layout fingerprint built on it (src/load/dwarf_sig.c): an ELF image
 * in, its .debug_info, .debug_abbrev and string sections read DIE by DIE
 * (every DIE and null entry in turn, its strings, its next sibling), the
 * fingerprint of every top-level struct or union.  A crash, an
 * out-of-bounds read, a leak, UB or a hang is a bug; a read that fails is
 * the expected answer to garbage.
 *
 * Seeds: the DWARF fixtures (FIXTURES_DIR/seeds/dwarf, as fuzz_dwarf).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "load/dwarf_int.h"
#include "load/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_source *src = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_source_open_dwarf_mem(data, size, "fuzz", &src, &err) != 0)
		return 0;
	struct dw *d = (struct dw *)src;
	struct slt_raw_die *die = malloc(sizeof(*die));
	struct slt_dw_sig memo = { 0 };
	volatile uint64_t sink = 0;
	if (die && slt_dw_raw_ready(d)) {
		for (size_t u = 0; u < d->raw.n_cu; u++) {
			uint64_t at = d->raw.cu[u].die;
			unsigned depth = 0;
			while (at < d->raw.cu[u].end) {
				int rc = slt_raw_die(&d->raw, at, die);
				if (rc < 0)
					break;
				if (rc == 0) {
					for (uint32_t k = 0; k < die->n; k++) {
						const uint8_t *p;
						size_t len;
						if (slt_raw_str(&d->raw, &die->a[k], &p, &len))
							sink += len ? p[len - 1] : 0;
					}
					sink += slt_raw_sibling(&d->raw, die);
					if (depth == 1 && (die->tag == DW_TAG_structure_type ||
							   die->tag == DW_TAG_union_type))
						sink += slt_dw_sig(d, &memo, at);
					depth += die->children;
				} else if (depth) {
					depth--;
				}
				at = die->next;
			}
		}
	}
	(void)sink;
	slt_dw_sig_free(&memo);
	free(die);
	src->ops->close(src);
	return 0;
}
