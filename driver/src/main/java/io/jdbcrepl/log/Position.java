package io.jdbcrepl.log;

import java.util.Objects;

/**
 * How far a consumer has read one source, stored as text in {@code repl_progress.position} and in
 * the source's {@code repl_subscriber.position}.
 *
 * <p>PostgreSQL ({@code pg|S1|S2|lastPosition|lastTx}): S1 is the snapshot every transaction visible
 * in which has been consumed (empty for a new consumer: it has consumed nothing); S2, when a batch is
 * under way, the snapshot that bounds it, and (lastPosition, lastTx) the last transaction of that
 * batch applied, in the batch's (max position, tx id) order. MariaDB/MySQL and H2
 * ({@code epoch|epoch|lastPosition|txId}): the (epoch, last position, tx id) of the last transaction
 * applied, in the order of {@code repl_tx}.
 */
public sealed interface Position permits Position.Snapshot, Position.Epoch {

    String encode();

    /** The position of a consumer that has read nothing: of a snapshot reader, else of an epoch reader. */
    static Position initial(boolean snapshots) {
        return snapshots ? new Snapshot(null, null, 0, null) : new Epoch(0, 0, "");
    }

    static Position decode(String text) {
        if (text == null) throw new IllegalArgumentException("no position");
        String[] p = text.split("\\|", -1);
        try {
            if (p[0].equals("pg") && p.length == 5) {
                return new Snapshot(emptyToNull(p[1]), emptyToNull(p[2]), Long.parseLong(p[3]), emptyToNull(p[4]));
            }
            if (p[0].equals("epoch") && p.length == 4) {
                return new Epoch(Long.parseLong(p[1]), Long.parseLong(p[2]), p[3]);
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new IllegalArgumentException("Not a jdbc:repl position: '" + text + "'");
    }

    private static String emptyToNull(String s) {
        return s.isEmpty() ? null : s;
    }

    /** A PostgreSQL position; see the interface. {@code low} null: nothing consumed yet. */
    record Snapshot(String low, String high, long lastPosition, String lastTx) implements Position {

        /** Inside a batch: the transaction (lastPosition, lastTx) of the batch bounded by {@code high} is applied. */
        public Snapshot after(long position, String tx) {
            return new Snapshot(low, Objects.requireNonNull(high, "batch snapshot"), position, tx);
        }

        /** Every transaction of the batch is consumed: its high snapshot becomes the low one. */
        public Snapshot closed() {
            return high == null ? this : new Snapshot(high, null, 0, null);
        }

        public boolean inBatch() {
            return high != null;
        }

        @Override
        public String encode() {
            return "pg|" + nz(low) + "|" + nz(high) + "|" + lastPosition + "|" + nz(lastTx);
        }

        private static String nz(String s) {
            return s == null ? "" : s;
        }
    }

    /** A MariaDB/MySQL or H2 position: the last applied transaction's (epoch, last position, tx id). */
    record Epoch(long epoch, long lastPosition, String txId) implements Position {

        @Override
        public String encode() {
            if (txId.contains("|")) throw new IllegalArgumentException("tx id with '|': " + txId);
            return "epoch|" + epoch + "|" + lastPosition + "|" + txId;
        }
    }
}
