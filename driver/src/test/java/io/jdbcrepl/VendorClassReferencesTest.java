package io.jdbcrepl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The vendor drivers are {@code provided}: an application has its own and no other. A compiled
 * reference to a vendor's class (an import, a {@code .class} literal, a supertype) makes the JVM
 * load it; only classes loaded solely for that vendor may hold one. A class name in a string,
 * loaded reflectively through the connection's own class loader, is fine.
 */
class VendorClassReferencesTest {

    /** Vendor packages, as the class file's constant pool spells them. */
    private static final List<String> VENDOR_PACKAGES = List.of("org/h2/", "org/postgresql/", "org/mariadb/", "com/mysql/");

    /**
     * The classes that may reference a vendor's classes, loaded only when that vendor is in use;
     * no other class may reference them in turn (that would load them, and the vendor's with them).
     */
    private static final Map<String, String> VENDOR_ONLY = Map.of(
            "io/jdbcrepl/dialect/h2/H2LogTrigger", "org/h2/"); // H2 loads it from a trigger, by name

    @Test
    void noClassOutsideAVendorsOwnReferencesAVendorsClasses() throws IOException, URISyntaxException {
        List<String> offenders = new java.util.ArrayList<>();
        // the driver module's classes and the interceptors module's, which the driver jar holds too
        for (Class<?> module : List.of(ReplDriver.class, io.jdbcrepl.intercept.ConnectionInterceptor.class)) {
            offenders.addAll(offenders(Path.of(module.getProtectionDomain().getCodeSource().getLocation().toURI())));
        }
        assertThat(offenders).as("driver classes referencing a vendor's classes").isEmpty();
    }

    private static List<String> offenders(Path classes) throws IOException {
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(f -> f.toString().endsWith(".class")).flatMap(f -> {
                String file = classes.relativize(f).toString().replace('\\', '/');
                String name = file.substring(0, file.length() - ".class".length()).replaceFirst("\\$.*", "");
                String pool = new String(read(f), StandardCharsets.ISO_8859_1);
                Stream<String> vendors = VENDOR_PACKAGES.stream().filter(p -> !p.equals(VENDOR_ONLY.get(name)));
                Stream<String> vendorOnly = VENDOR_ONLY.keySet().stream().filter(c -> !c.equals(name));
                return Stream.concat(vendors, vendorOnly).filter(pool::contains).map(p -> file + " references " + p);
            }).toList();
        }
    }

    private static byte[] read(Path f) {
        try {
            return Files.readAllBytes(f);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
