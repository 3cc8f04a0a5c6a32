package io.jdbcrepl.capture;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The zone in which a session shows the columns that hold instants as wall times (see
 * {@code Dialect.timestampInSessionZone}), so that a wall time read back becomes the instant the
 * column holds. A part of the databases whose {@code LockingCapabilities.sessionZoneTimestamps}
 * says so; what varies is how the session's zone is read.
 */
public interface SessionZone {

    /** The session's zone; an SQLException when Java knows no zone of that name. */
    ZoneId of(Connection connection) throws SQLException;

    /**
     * The instant a wall time of {@code zone} stands for, in UTC. In the hour a zone's clocks go back
     * the wall time is ambiguous and the earlier offset is taken.
     */
    static OffsetDateTime instant(LocalDateTime wall, ZoneId zone) {
        return wall.atZone(zone).toOffsetDateTime().withOffsetSameInstant(ZoneOffset.UTC);
    }
}
