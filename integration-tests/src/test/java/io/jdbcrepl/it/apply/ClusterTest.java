package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.provider.Arguments;

/** A test with a {@link Cluster} of throwaway databases, whose inbound servers stop before the databases are dropped. */
abstract class ClusterTest {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    Cluster cluster;

    @AfterEach
    void stopInboundServers() {
        if (cluster != null) cluster.close();
    }

    /** For {@code @MethodSource("pairs")}: two PostgreSQL nodes, two MariaDB nodes, PostgreSQL ⇄ MariaDB. */
    static Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL)),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.MARIADB)),
                Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.MARIADB)));
    }

    /** For {@code @MethodSource("trios")}: three PostgreSQL nodes, three MariaDB nodes, a mixed trio. */
    static Stream<Arguments> trios() {
        return Stream.of(Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL, Vendor.POSTGRESQL)),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.MARIADB, Vendor.MARIADB)),
                Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.MARIADB, Vendor.POSTGRESQL)));
    }

    /** The time column type of a vendor, microseconds kept. */
    static String timestampType(Vendor v) {
        return v.isMariaDbServer() ? "DATETIME(6)" : "TIMESTAMP(6)";
    }
}
