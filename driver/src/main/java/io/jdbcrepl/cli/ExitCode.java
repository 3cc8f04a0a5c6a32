package io.jdbcrepl.cli;

/** The command line's exit codes; scripts rely on them, so they never change meaning. */
public final class ExitCode {
    /** The operation succeeded (and for {@code verify}: the nodes agree). */
    public static final int OK = 0;
    /** The operation ran and failed: a database error, a timeout, differing rows. */
    public static final int FAILED = 1;
    /**
     * The command line or the configuration was wrong: unknown command or option, missing
     * {@code --url}, bad value; a URL without repl.node, an unknown or invalid repl.* key.
     */
    public static final int USAGE = 2;

    static final String SUMMARY =
            "exit codes: 0 ok, 1 operation failed, 2 usage or configuration error";

    private ExitCode() {}
}
