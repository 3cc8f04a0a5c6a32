package io.jdbcrepl.apply;

import org.postgresql.PGConnection;

import java.sql.Connection;
import java.sql.SQLException;

/** pgjdbc's notifications, in a class of their own: loaded only for a PostgreSQL source. */
final class PgNotifications {

    private PgNotifications() {
    }

    /** Blocks until a notification arrives or {@code millis} pass. */
    static void await(Connection connection, long millis) throws SQLException, InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        PGConnection pg = connection.unwrap(PGConnection.class);
        pg.getNotifications((int) Math.max(1, Math.min(Integer.MAX_VALUE, millis)));
    }
}
