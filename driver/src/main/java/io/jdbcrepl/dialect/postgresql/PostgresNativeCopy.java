package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.apply.NativeCopy;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyOut;

/**
 * {@code COPY (query) TO STDOUT} on the donor piped into {@code COPY table (columns) FROM STDIN}
 * here, in text format (what {@code pg_dump | psql} does): the server formats and parses the
 * values, nothing is bound one by one. Both sessions read and write temporal values in UTC and
 * ISO style (the join sets the zone, pgjdbc the style), and floats with every digit (pgjdbc's
 * {@code extra_float_digits}), so the text is the value.
 */
final class PostgresNativeCopy implements NativeCopy {

    /** Rows are gathered up to this many bytes before they are sent: fewer, larger messages. */
    private static final int BUFFER = 64 * 1024;
    /** Progress is told every this many rows. */
    private static final int PROGRESS_ROWS = 1_000;

    @Override
    public boolean exists() {
        return true;
    }

    @Override
    public long copy(Connection donor, String query, Connection local, String table, List<String> columns, Rows progress)
            throws SQLException {
        CopyOut reading = donor.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (" + query + ") TO STDOUT");
        CopyIn writing = null;
        try {
            writing = local.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " (" + String.join(", ", columns)
                    + ") FROM STDIN");
            byte[] buffer = new byte[BUFFER];
            int used = 0;
            long rows = 0;
            // the server sends one message per row
            for (byte[] row; (row = reading.readFromCopy()) != null; ) {
                if (used + row.length > BUFFER) {
                    writing.writeToCopy(buffer, 0, used);
                    used = 0;
                }
                if (row.length > BUFFER) {
                    writing.writeToCopy(row, 0, row.length);
                } else {
                    System.arraycopy(row, 0, buffer, used, row.length);
                    used += row.length;
                }
                if (++rows % PROGRESS_ROWS == 0) progress.copied(rows);
            }
            if (used > 0) writing.writeToCopy(buffer, 0, used);
            writing.endCopy();
            return rows;
        } catch (SQLException | RuntimeException e) {
            cancel(reading, writing, e);
            throw e;
        }
    }

    /** Ends whichever COPY is still under way, so that both connections can be used (rolled back) again. */
    private static void cancel(CopyOut reading, CopyIn writing, Exception cause) {
        try {
            if (writing != null && writing.isActive()) writing.cancelCopy();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
        try {
            if (reading.isActive()) reading.cancelCopy();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
