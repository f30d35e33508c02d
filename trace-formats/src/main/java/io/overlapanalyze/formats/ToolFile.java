package io.overlapanalyze.formats;

/**
 * The JSON documents this tool writes, by the {@code "kind"} each carries at the top: the one list
 * every place that tells "our own file" from a trace reads (the walk that skips a saved result, diff
 * and gate telling a summary from another result, the writers that put the kind first). Here, at the
 * front door, because the walk must recognise them before any reader is asked.
 *
 * <p>The analysis report itself ({@code -f json}) carries no kind (its fields are the contract, and
 * a kind would be a new first field): it is told by {@code schemaVersion} and {@code ranks} at the
 * top. The run history database is SQLite, told by its {@code application_id}; a rank digest never
 * leaves the run that made it.
 */
public enum ToolFile {
    /** A saved report that diff and gate read as a run ({@code overlap-analyze summary}). */
    SUMMARY("summary"),
    /** The {@code diff} command's JSON. */
    DIFF("diff"),
    /** The {@code gate} command's JSON. */
    GATE("gate"),
    /** The {@code history} command's JSON listing. */
    HISTORY("history");

    /** What every kind of this tool starts with. */
    private static final String PREFIX = "overlap-analyze ";

    private final String kind;

    ToolFile(String name) {
        this.kind = PREFIX + name;
    }

    /** The {@code "kind"} value the document carries ({@code "overlap-analyze summary"}). */
    public String kind() {
        return kind;
    }

    /**
     * Whether a {@code "kind"} value says the document is this tool's: any {@code "overlap-analyze …"},
     * including kinds a newer version writes that this one does not know.
     */
    public static boolean isToolKind(String kind) {
        return kind != null && kind.startsWith(PREFIX);
    }
}
