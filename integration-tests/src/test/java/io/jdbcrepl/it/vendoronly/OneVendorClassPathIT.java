package io.jdbcrepl.it.vendoronly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application has its own vendor's JDBC driver and no other (the vendor drivers are
 * {@code provided}): a JVM per vendor whose class path holds the shaded driver jar
 * ({@code repl.driverJar}), that vendor's driver and {@link OneVendorProgram} captures, applies
 * between two nodes and creates and refreshes a materialized view with its log; then the jar's
 * command line, {@code java -jar} with only that vendor's driver in {@code lib/} beside it, reports
 * the node's {@code status}. No code path may load another vendor's classes.
 */
class OneVendorClassPathIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @ForEachVendor
    void worksWithOnlyItsOwnVendorsDriver(Vendor vendor, @TempDir Path dir) throws Exception {
        String raw1;
        String raw2;
        String user;
        String password;
        if (vendor == Vendor.H2) {
            // files, not memory: the command line reads the node after the program's JVM ended
            raw1 = "jdbc:h2:file:" + dir.resolve("n1").toAbsolutePath();
            raw2 = "jdbc:h2:file:" + dir.resolve("n2").toAbsolutePath();
            user = "sa";
            password = "";
        } else {
            List<TestDatabase> nodes = databases.nodes(vendor, "one_vendor", 2);
            raw1 = nodes.get(0).rawUrl();
            raw2 = nodes.get(1).rawUrl();
            user = nodes.get(0).user();
            password = nodes.get(0).password();
        }
        Path driverJar = Path.of(System.getProperty("repl.driverJar"));
        assertThat(driverJar).as("the shaded driver jar (system property repl.driverJar)").isRegularFile();
        Path vendorJar = vendorJar(vendor);

        Path classes = programClasses(dir.resolve("program"));
        List<String> program = new ArrayList<>(List.of(java(), "-cp",
                String.join(File.pathSeparator, driverJar.toString(), vendorJar.toString(), classes.toString()),
                OneVendorProgram.class.getName(), driverClass(vendor), raw1, raw2, user));
        if (!password.isEmpty()) program.add(password);
        String output = run(program, dir.resolve("program.log"));
        assertThat(output).as("the program's output").contains(OneVendorProgram.OK).doesNotContain("NoClassDefFoundError");

        // java -jar: the class path is the jar alone, the vendor drivers come from lib/ beside it
        Path install = Files.createDirectories(dir.resolve("install"));
        Path jar = Files.copy(driverJar, install.resolve(driverJar.getFileName()));
        Files.copy(vendorJar, Files.createDirectories(install.resolve("lib")).resolve(vendorJar.getFileName()));
        List<String> status = new ArrayList<>(List.of(java(), "-jar", jar.toString(), "status", "--url",
                OneVendorProgram.n2Url(raw1, raw2, user, password), "--user", user));
        if (!password.isEmpty()) status.addAll(List.of("--password", password));
        String report = run(status, dir.resolve("status.log"));
        assertThat(report).as("status of n2").contains("Node n2").containsPattern("(?m)^n1\\s");
    }

    /** Runs a command to its end (two minutes at most); its output, after checking its exit code is 0. */
    private static String run(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not end within 120 s; it printed:%n%s", Files.readString(log));
        }
        String output = Files.readString(log);
        assertThat(process.exitValue()).as("exit code of %s; it printed:%n%s", command, output).isZero();
        return output;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String driverClass(Vendor vendor) {
        return switch (vendor) {
            case POSTGRESQL -> "org.postgresql.Driver";
            case MARIADB -> "org.mariadb.jdbc.Driver";
            case MYSQL_DRIVER_ON_MARIADB -> "com.mysql.cj.jdbc.Driver";
            case H2 -> "org.h2.Driver";
        };
    }

    /** The jar of the vendor's driver, as this test's class path has it. */
    private static Path vendorJar(Vendor vendor) throws ClassNotFoundException, URISyntaxException {
        Class<?> driver = Class.forName(driverClass(vendor));
        Path jar = Path.of(driver.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(jar).as("the jar of %s", driver.getName()).isRegularFile();
        return jar;
    }

    /** {@link OneVendorProgram}'s class files alone, in a folder of their own (the test classes use test libraries). */
    private static Path programClasses(Path dir) throws IOException, URISyntaxException {
        Path compiled = Path.of(OneVendorProgram.class.getResource(OneVendorProgram.class.getSimpleName() + ".class").toURI())
                .getParent();
        Path target = Files.createDirectories(dir.resolve(OneVendorProgram.class.getPackageName().replace('.', '/')));
        try (DirectoryStream<Path> files = Files.newDirectoryStream(compiled, OneVendorProgram.class.getSimpleName() + "*.class")) {
            for (Path f : files) Files.copy(f, target.resolve(f.getFileName()));
        }
        return dir;
    }
}
