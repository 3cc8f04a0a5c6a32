package io.jdbcrepl.cli;

import io.jdbcrepl.mview.MaterializedViews;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * {@code refresh --url <url> <view>…}: {@code DBMS_MVIEW.REFRESH} from the command line, through
 * a {@code jdbc:repl:} connection (with or without {@code repl.node}), each view in its own transaction.
 */
final class RefreshCommand {

    private RefreshCommand() {
    }

    static void check(Invocation invocation) throws UsageException {
        if (invocation.flag("--complete") && invocation.flag("--fast")) {
            throw new UsageException("'refresh' takes --complete or --fast, not both");
        }
    }

    static int run(Invocation invocation) throws SQLException {
        Properties info = new Properties();
        if (invocation.value(Option.USER.name()) != null) info.setProperty("user", invocation.value(Option.USER.name()));
        if (invocation.value(Option.PASSWORD.name()) != null) info.setProperty("password", invocation.value(Option.PASSWORD.name()));
        List<String> views = invocation.operands();
        try (Connection c = DriverManager.getConnection(invocation.url(), info)) {
            MaterializedViews mviews = c.unwrap(MaterializedViews.class);
            for (String view : views) {
                long start = System.nanoTime();
                if (invocation.flag("--complete")) mviews.refreshComplete(view);
                else if (invocation.flag("--fast")) mviews.refreshFast(view);
                else mviews.refresh(view);
                invocation.out.println("Refreshed " + view + " in " + (System.nanoTime() - start) / 1_000_000 + " ms.");
            }
        }
        return ExitCode.OK;
    }
}
