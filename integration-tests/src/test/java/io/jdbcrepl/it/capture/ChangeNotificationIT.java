package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.log.CommitSignal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 4.6: a commit of captured changes wakes the readers of the node's log at once: in this JVM
 * through {@link CommitSignal}, across JVMs on PostgreSQL through {@code NOTIFY repl_log}, sent
 * after the commit (never for a rollback, nor for statements that captured nothing).
 */
class ChangeNotificationIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perTest();

    private static String nodeName() {
        return "n" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    private static void createTables(TestDatabase db) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE item (id int PRIMARY KEY, qty int)");
            s.execute("CREATE TABLE scratch (id int PRIMARY KEY, qty int)");
            s.execute("INSERT INTO item VALUES (1, 0), (2, 0)");
        }
    }

    @Test
    void postgresNotifiesListenersAfterCapturedCommitsOnly() throws Exception {
        TestDatabase db = DATABASES.create(Vendor.POSTGRESQL, "notify");
        createTables(db);
        String node = nodeName();
        try (Connection listener = db.openRaw();
             Connection app = db.openRepl(Map.of("repl.node", node, "repl.exclude", "scratch"))) {
            try (Statement s = listener.createStatement()) {
                s.execute("LISTEN repl_log");
            }
            PGConnection pg = listener.unwrap(PGConnection.class);
            try (Statement s = app.createStatement()) {
                s.executeUpdate("UPDATE item SET qty = qty + 1 WHERE id = 1"); // auto-commit
                assertThat(payloads(pg, 5_000)).containsExactly(node);

                s.executeUpdate("INSERT INTO scratch VALUES (1, 1)"); // not replicated
                assertThat(payloads(pg, 500)).isEmpty();

                app.setAutoCommit(false);
                s.executeUpdate("UPDATE item SET qty = qty + 1 WHERE id = 2");
                assertThat(payloads(pg, 500)).as("nothing before the commit").isEmpty();
                app.commit();
                assertThat(payloads(pg, 5_000)).containsExactly(node);

                s.executeUpdate("DELETE FROM item WHERE id = 2");
                app.rollback();
                assertThat(payloads(pg, 500)).as("nothing for a rollback").isEmpty();
            }
        }
    }

    /** Notifications that arrive within {@code millis}; several requests may merge into one. */
    private static List<String> payloads(PGConnection pg, int millis) throws SQLException {
        List<String> out = new ArrayList<>();
        long deadline = System.currentTimeMillis() + millis;
        while (out.isEmpty() && System.currentTimeMillis() < deadline) {
            PGNotification[] received = pg.getNotifications((int) Math.max(1, deadline - System.currentTimeMillis()));
            if (received != null) for (PGNotification n : received) out.add(n.getParameter());
        }
        if (!out.isEmpty()) {
            // let merged requests settle, then take what else arrived: one commit, one notification
            PGNotification[] more = pg.getNotifications(200);
            if (more != null) for (PGNotification n : more) out.add(n.getParameter());
        }
        return out;
    }

    @ForEachVendor
    void commitSignalFiresInThisJvmAfterCapturedCommits(Vendor vendor) throws Exception {
        TestDatabase db = DATABASES.create(vendor, "signal");
        createTables(db);
        String node = nodeName();
        CommitSignal signal = CommitSignal.of(node);
        try (Connection app = db.openRepl(Map.of("repl.node", node, "repl.exclude", "scratch"));
             Statement s = app.createStatement()) {
            long before = signal.generation();
            s.executeUpdate("UPDATE item SET qty = qty + 1 WHERE id = 1");
            assertThat(signal.generation()).as("auto-commit").isGreaterThan(before);

            before = signal.generation();
            s.executeUpdate("INSERT INTO scratch VALUES (1, 1)");
            app.setAutoCommit(false);
            s.executeUpdate("UPDATE item SET qty = qty + 1 WHERE id = 2");
            assertThat(signal.generation()).as("not replicated, then not committed yet").isEqualTo(before);
            app.commit();
            assertThat(signal.generation()).as("commit").isGreaterThan(before);

            before = signal.generation();
            s.executeUpdate("DELETE FROM item WHERE id = 2");
            app.rollback();
            assertThat(signal.generation()).as("rollback").isEqualTo(before);
            app.setAutoCommit(true);
        }
    }
}
