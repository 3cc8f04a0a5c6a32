package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.support.TestDatabases;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A test with a {@link Cluster} of throwaway databases, whose inbound servers stop before the databases are dropped. */
abstract class ClusterTest {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    Cluster cluster;

    @AfterEach
    void stopInboundServers() {
        if (cluster != null) cluster.close();
    }
}
