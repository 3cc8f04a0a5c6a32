package io.jdbcrepl.cli;

import io.jdbcrepl.demo.Demo;

import java.nio.file.Path;
import java.sql.SQLException;

/** {@code demo}: the options of the command line handed to {@link Demo}. */
final class DemoCommand {

    static final int DEFAULT_NODES = 3;
    static final int DEFAULT_SECONDS = 10;

    private DemoCommand() {
    }

    static int run(Invocation invocation) throws SQLException, InterruptedException, UsageException {
        Demo.Options options = new Demo.Options(
                invocation.integer("--nodes", DEFAULT_NODES, 2, 9),
                invocation.integer("--seconds", DEFAULT_SECONDS, 1, 3600),
                invocation.values(Option.URL.name()),
                invocation.value(Option.USER.name()),
                invocation.value(Option.PASSWORD.name()),
                invocation.flag(Option.JSON.name()),
                invocation.out == System.out && System.console() != null,
                program());
        // The inbound servers' INFO lines ("applying from n1 to n2") would break up the summary;
        // warnings still show. (Only java.util.logging, and only when no logging configuration set a level.)
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("io.jdbcrepl");
        if (log.getLevel() == null) log.setLevel(java.util.logging.Level.WARNING);
        int code;
        try {
            code = Demo.run(options, invocation.out);
        } catch (RuntimeException e) {
            // a fault of the driver or the demo: one line for the person running it, as an SQLException's would be
            throw new SQLException("internal error: " + oneLine(e), e);
        } catch (SQLException e) {
            throw e.getMessage() != null && e.getMessage().contains("\n")
                    ? new SQLException(e.getMessage().replaceAll("\\s*\\R\\s*", " "), e.getSQLState(), e) : e;
        }
        return code == 0 ? ExitCode.OK : ExitCode.FAILED;
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? "" : ": " + e.getMessage().replaceAll("\\s*\\R\\s*", " ");
        return e.getClass().getSimpleName() + message;
    }

    /** How this command line was started: {@code java -jar <the jar>} when run from one, else the README's form. */
    static String program() {
        try {
            Path jar = Path.of(DemoCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (jar.getFileName().toString().endsWith(".jar")) {
                String path = jar.toString();
                return "java -jar " + (path.matches("[A-Za-z0-9_./:\\\\+-]+") ? path : "'" + path.replace("'", "'\\''") + "'");
            }
        } catch (Exception notAFile) {
            // a class path entry that is not a file: the usual form
        }
        return Main.PROGRAM;
    }
}
