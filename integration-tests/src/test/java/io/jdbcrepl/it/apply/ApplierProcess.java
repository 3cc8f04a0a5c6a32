package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The CLI's {@code apply} in a JVM of its own (shaded driver jar and the vendor's driver), its output to a file. */
final class ApplierProcess {

    private ApplierProcess() {
    }

    static Process start(String url, TestDatabase dest, Path log, String maxHeap) throws Exception {
        String jar = System.getProperty("repl.driverJar");
        String vendorJar = Path.of((dest.vendor() == Vendor.POSTGRESQL ? org.postgresql.Driver.class : org.mariadb.jdbc.Driver.class)
                .getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeap, "-cp", jar + File.pathSeparator + vendorJar, "io.jdbcrepl.cli.Main", "apply", "--url", url,
                "--user", dest.user()));
        if (!dest.password().isEmpty()) command.addAll(List.of("--password", dest.password()));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
