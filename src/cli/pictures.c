/* SPDX-License-Identifier: MIT */
/*
 * The picture options report and suggest share (analysis_args.h): --map's
 * colour and width, and the --html page's file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/analysis_args.h"
#include "cli/cli.h"
#include "structlint/map_report.h"

/* The narrowest map (columns): narrower widths are drawn at this one. */
#define MIN_WIDTH 20

/* COLUMNS when it is a number, else the terminal's width when stdout is
 * one, else 80; at least MIN_WIDTH. */
static unsigned term_width(void)
{
	unsigned long v;
	const char *cols = getenv("COLUMNS");
	if (cols && cli_parse_uint(cols, 1, 10000, &v))
		return v < MIN_WIDTH ? MIN_WIDTH : (unsigned)v;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col < MIN_WIDTH ? MIN_WIDTH : ws.ws_col;
	return 80;
}

int cli_pictures_setup(struct cli_analysis *c)
{
	if (c->map && c->json)
		return cli_usage_error("--map draws text; choose --map or --json");
	if (c->html && !strcmp(c->html, "-") && (c->map || c->json))
		return cli_usage_error("--html - writes the page to stdout; write it to a FILE "
				       "to also have %s", c->map ? "--map" : "--json");
	c->ropts.color = c->map && cli_use_color(c->color);
	c->ropts.width = term_width();
	return 0;
}

int cli_html_open(const struct cli_analysis *c, FILE **out, struct slt_error *err)
{
	*out = NULL;
	if (!c->html)
		return 0;
	FILE *f = strcmp(c->html, "-") ? fopen(c->html, "w") : stdout;
	if (!f)
		return slt_error_set(err, SLT_EIO, c->html, -1,
				     "give --html a path in a writable directory",
				     "cannot create the HTML page");
	*out = f;
	/* the definitions' names for the title, each once */
	char names[256] = "";
	for (size_t i = 0; c->layout && i < c->layout->n_structs; i++) {
		const char *n = c->layout->structs[i].name;
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(c->layout->structs[k].name, n);
		size_t u = strlen(names);
		if (!seen && u + 1 < sizeof(names))
			snprintf(names + u, sizeof(names) - u, "%s%s", u ? ", " : "", n);
	}
	int rc = slt_report_html_begin(f, c->file, names, err);
	if (rc)
		return cli_html_close(c, f, rc, err);
	return 0;
}

int cli_html_close(const struct cli_analysis *c, FILE *out, int rc,
		   struct slt_error *err)
{
	if (!out)
		return rc;
	if (!rc)
		rc = slt_report_html_end(out, err);
	if (out != stdout && fclose(out) && !rc)
		rc = slt_error_set(err, SLT_EIO, c->html, -1, NULL, "write failed");
	/* no half page for a CI job to upload (a regular file only: never
	 * /dev/stdout or a device) */
	struct stat st;
	if (rc && out != stdout && !stat(c->html, &st) && S_ISREG(st.st_mode))
		remove(c->html);
	if (rc == SLT_EIO && !err->file[0])
		snprintf(err->file, sizeof(err->file), "%s", c->html);
	/* say what was written, as tools do: on stderr, stdout stays the
	 * report's */
	if (!rc && out != stdout && !stat(c->html, &st))
		fprintf(stderr, "structlint: wrote %s (%lld bytes)\n", c->html,
			(long long)st.st_size);
	return rc;
}
