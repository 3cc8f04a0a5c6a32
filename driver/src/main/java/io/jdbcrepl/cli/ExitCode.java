package io.jdbcrepl.cli;

/** The command line's exit codes; scripts rely on them, so they never change meaning. */
public final class ExitCode {
    /** The operation succeeded (and for {@code verify}: the nodes agree). */
    public static final int OK = 0;
    /** The operation ran and failed: a database error, a timeout, differing rows. */
    public static final int FAILED = 1;
    /** The command line was wrong: unknown command or option, missing {@code --url}, bad value. */
    public static final int USAGE = 2;

    static final String SUMMARY =
            "exit codes: 0 ok, 1 operation failed, 2 usage error";

    private ExitCode() {}
}
