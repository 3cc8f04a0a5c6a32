package io.jdbcrepl.cli;

import io.jdbcrepl.demo.Demo;

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
                invocation.out == System.out && System.console() != null);
        // The inbound servers' INFO lines ("applying from n1 to n2") would break up the summary;
        // warnings still show. (Only java.util.logging, and only when no logging configuration set a level.)
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("io.jdbcrepl");
        if (log.getLevel() == null) log.setLevel(java.util.logging.Level.WARNING);
        int code = Demo.run(options, invocation.out);
        return code == 0 ? ExitCode.OK : ExitCode.FAILED;
    }
}
