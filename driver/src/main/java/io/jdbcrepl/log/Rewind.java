package io.jdbcrepl.log;

import io.jdbcrepl.intercept.SqlState;
import java.sql.SQLException;

/**
 * Signs that a source went back in time (SPEC 8.8): restored from a backup, or a crash that lost
 * commits this node had applied. Applying on would skip the transactions that reuse the lost ids
 * (PostgreSQL) or epochs (MariaDB/MySQL, H2), so the applier stops instead. Each check compares
 * what the source says now with what this consumer saw there before; none can fire while the
 * source only moves forward.
 */
public final class Rewind {

    private Rewind() {
    }

    /**
     * {@code mark} is what the source says now ({@link SourceReader#mark()}): PostgreSQL, its current
     * snapshot, whose xmax (the next transaction id) never goes below that of a snapshot taken there
     * earlier; an epoch source, a newly closed epoch, which is at least two above the epoch of any
     * transaction read before (that transaction's epoch was closed before it was read, and every
     * close adds one). The reason with the evidence, or null.
     */
    public static String check(Position at, String mark) {
        if (at instanceof Position.Snapshot s) {
            long seen = horizon(s);
            long now = xmax(mark);
            return now < seen ? "its next transaction id is " + now + ", below " + seen + " seen there before (position "
                    + at.encode() + ", current snapshot " + mark + ")" : null;
        }
        Position.Epoch e = (Position.Epoch) at;
        long closed = Long.parseLong(mark);
        return closed <= e.epoch() + 1 ? "its repl_epoch closed at " + closed + ", not above the epoch " + e.epoch()
                + " of a transaction applied from it (position " + at.encode() + ")" : null;
    }

    /**
     * The consumer's row in the source's {@code repl_subscriber} ({@code found}, null when there is
     * none) against the position this consumer last wrote there ({@code written}, null when it has
     * not recorded one): older or missing means the source lost that write. Only an order that the
     * positions of one consumer always follow counts; anything else passes.
     */
    public static String checkSubscriber(Position written, Position found) {
        if (written == null) return null;
        if (found == null) {
            return "its repl_subscriber has no row for this node, which wrote " + written.encode() + " there";
        }
        boolean older;
        if (written instanceof Position.Snapshot w && found instanceof Position.Snapshot f) {
            older = horizon(f) < horizon(w);
        } else if (written instanceof Position.Epoch w && found instanceof Position.Epoch f) {
            older = Long.compare(f.epoch(), w.epoch()) < 0
                    || (f.epoch() == w.epoch() && f.lastPosition() < w.lastPosition());
        } else {
            older = false;
        }
        return older ? "its repl_subscriber holds " + found.encode() + " for this node, older than the "
                + written.encode() + " it wrote there" : null;
    }

    /**
     * The xmax of the latest snapshot a PostgreSQL position names (the batch's when in one, else
     * the low one; 0 for a new consumer): it never decreases as the position moves on.
     */
    static long horizon(Position.Snapshot p) {
        String s = p.high() != null ? p.high() : p.low();
        return s == null ? 0 : xmax(s);
    }

    /** The xmax of a snapshot's text form {@code xmin:xmax:xip,...}. */
    static long xmax(String snapshot) {
        int first = snapshot.indexOf(':');
        return Long.parseLong(snapshot.substring(first + 1, snapshot.indexOf(':', first + 1)));
    }

    /** What status and the log say: the source, what happened, the evidence. */
    public static String reason(String source, String evidence) {
        String r = source + " went back in time (restored from a backup, or a crash lost commits): " + evidence;
        return r.length() <= 4000 ? r : r.substring(0, 3997) + "...";
    }

    /** A reader found the source gone back in time: applying from it stops. */
    public static final class Detected extends SQLException {
        public final String evidence;

        public Detected(String evidence) {
            super("The source went back in time: " + evidence, SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
            this.evidence = evidence;
        }
    }
}
