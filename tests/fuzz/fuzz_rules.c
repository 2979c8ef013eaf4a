/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the rules file parser (src/gate/rules.c) on arbitrary
 * bytes; a parsed file is also walked and looked up. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "structlint/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_rules *r = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_rules_read_mem(data, size, "fuzz.rules", &r, &err) == 0) {
		size_t n = 0;
		for (size_t i = 0; i < r->n_structs; i++) {
			const struct slt_rules_struct *s = &r->structs[i];
			if (slt_rules_find(r, s->name) != s)
				__builtin_trap();
			for (size_t k = 0; k < s->n_rules; k++)
				n += strlen(slt_rule_kind_name(s->rules[k].kind)) + s->rules[k].n_names;
			for (size_t k = 0; k < s->n_groups; k++)
				n += s->groups[k].n_members;
		}
		(void)n;
		slt_rules_free(r);
	} else if (r) {
		__builtin_trap();
	}
	return 0;
}
