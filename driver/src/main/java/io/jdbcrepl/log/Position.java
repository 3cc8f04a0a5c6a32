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

    /**
     * Whether the transaction {@code txId}, whose last LCR is at {@code lastPosition} and which a
     * reader places at {@code after}, is among those a consumer at this position has consumed.
     */
    boolean consumed(String txId, long lastPosition, Position after);

    /**
     * Whether a consumer at this position has consumed everything one at {@code other} has; may
     * answer false when it cannot tell cheaply (then the caller keeps checking transaction by transaction).
     */
    boolean atOrPast(Position other);

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

        /** Visible in S1, or in the batch's S2 at or before (lastPosition, lastTx) in the batch's order. */
        @Override
        public boolean consumed(String txId, long position, Position after) {
            long xid = Long.parseLong(txId);
            if (low != null && visible(xid, low)) return true;
            if (!inBatch() || !visible(xid, high)) return false;
            int c = Long.compare(position, lastPosition);
            return c < 0 || (c == 0 && xid <= Long.parseLong(lastTx));
        }

        /** Every transaction below S1's xmin is decided in S1; so was everything the other saw when its bound is below it. */
        @Override
        public boolean atOrPast(Position other) {
            Snapshot o = (Snapshot) other;
            String bound = o.inBatch() ? o.high : o.low;
            if (bound == null) return true; // the other consumed nothing
            return low != null && xmin(low) >= xmax(bound);
        }

        /**
         * Whether the transaction {@code xid} is visible in a snapshot in PostgreSQL's text form
         * {@code xmin:xmax:xip,...} (a committed transaction: every id the log holds committed).
         */
        public static boolean visible(long xid, String snapshot) {
            String[] p = snapshot.split(":", -1);
            if (xid < Long.parseLong(p[0])) return true;
            if (xid >= Long.parseLong(p[1])) return false;
            if (p.length > 2 && !p[2].isEmpty()) {
                for (String inProgress : p[2].split(",")) if (Long.parseLong(inProgress) == xid) return false;
            }
            return true;
        }

        static long xmin(String snapshot) {
            return Long.parseLong(snapshot.substring(0, snapshot.indexOf(':')));
        }

        static long xmax(String snapshot) {
            String[] p = snapshot.split(":", -1);
            return Long.parseLong(p[1]);
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

        /** Every transaction of epoch {@code epoch} and below, none of a later one. */
        public static Epoch through(long epoch) {
            return new Epoch(epoch, Long.MAX_VALUE, "");
        }

        @Override
        public boolean consumed(String txId, long position, Position after) {
            return compare((Epoch) after, this) <= 0;
        }

        @Override
        public boolean atOrPast(Position other) {
            return compare(this, (Epoch) other) >= 0;
        }

        /** (epoch, last position, tx id) order, as the reader reads repl_tx. */
        static int compare(Epoch a, Epoch b) {
            int c = Long.compare(a.epoch(), b.epoch());
            if (c == 0) c = Long.compare(a.lastPosition(), b.lastPosition());
            return c != 0 ? c : a.txId().compareTo(b.txId());
        }

        @Override
        public String encode() {
            if (txId.contains("|")) throw new IllegalArgumentException("tx id with '|': " + txId);
            return "epoch|" + epoch + "|" + lastPosition + "|" + txId;
        }
    }
}
