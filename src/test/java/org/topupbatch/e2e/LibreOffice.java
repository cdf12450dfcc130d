package org.topupbatch.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Real LibreOffice Calc, headless, as Debian's {@code libreoffice-calc-nogui} installs it: writes
 * CSV files the way a shop's spreadsheet does. A missing {@code soffice} fails the test that needs
 * it (never skips it): the files would go untested.
 *
 * <p>The CSV filter's options string is LibreOffice's "Filter Options for the CSV Filter" (its help
 * page "csv_params"): token 1 the field separator as a character code (44 {@code ,}, 59 {@code ;},
 * 9 tab), token 2 the text delimiter (34 {@code "}), token 3 the character set: 76 UTF-8, 1
 * Windows-1252 (WinLatin 1), 65535 Unicode, which LibreOffice writes as UTF-16 in the machine's byte
 * order (little-endian here) with a byte-order mark, as Excel's "Unicode text" is. Debian 12's
 * LibreOffice 7.4 writes UTF-8 without a byte-order mark and has no option for one (token 14,
 * "include BOM", came later and is ignored here). On import, token 4 is the first line to read and
 * token 5 gives each column a format: 2 is text, so {@code 081234567890} keeps its 0.
 *
 * <p>Each call runs with a private profile ({@code -env:UserInstallation}), so runs in parallel do
 * not hand their work to each other's instance, and under a time limit. One call converts with one
 * filter, so a test writing three encodings makes three calls (the first, creating the profile,
 * takes a few seconds; the next about one each).
 */
final class LibreOffice {

    /** Seconds one call may take. */
    static final int LIMIT_SECONDS = 120;

    private final Path profile;

    LibreOffice(Path profile) {
        this.profile = profile;
    }

    static Path soffice() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "soffice");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("soffice (LibreOffice) is missing: the batch files LibreOffice writes are tested with it;"
                + " install Debian's libreoffice-calc-nogui: 'apt-get install -y --no-install-recommends"
                + " libreoffice-calc-nogui' (.ci/run does)");
    }

    /** The import options for a UTF-8, comma-separated source whose {@code columns} columns are all text. */
    static String textImport(int columns) {
        return "44,34,76,1," + IntStream.rangeClosed(1, columns).mapToObj(c -> c + "/2").collect(Collectors.joining("/"));
    }

    /**
     * Opens {@code source} (a UTF-8 CSV) with {@code importOptions} (token 5: each column's format, 1
     * standard, 2 text) and saves it as an Excel workbook (.xlsx) into {@code outDir}, as a person does
     * who opens an export in a spreadsheet and saves it; returns the workbook written.
     */
    Path workbook(Path source, String importOptions, Path outDir) throws IOException, InterruptedException {
        return run(source, importOptions, "xlsx:Calc MS Excel 2007 XML", ".xlsx", outDir);
    }

    /**
     * Opens {@code source} (a UTF-8 CSV, every column as text) and saves it as CSV with the export
     * options {@code exportOptions} (e.g. {@code 59,34,1}: {@code ;}, {@code "}, Windows-1252) into
     * {@code outDir}; returns the file written.
     */
    Path convert(Path source, int columns, String exportOptions, Path outDir) throws IOException, InterruptedException {
        return run(source, textImport(columns), "csv:Text - txt - csv (StarCalc):" + exportOptions, ".csv", outDir);
    }

    private Path run(Path source, String importOptions, String convertTo, String extension, Path outDir)
            throws IOException, InterruptedException {
        Files.createDirectories(outDir);
        List<String> command = new ArrayList<>(List.of(soffice().toString(),
                "-env:UserInstallation=" + profile.toUri(),
                "--headless", "--norestore", "--nologo", "--nodefault", "--nolockcheck",
                "--infilter=Text - txt - csv (StarCalc):" + importOptions,
                "--convert-to", convertTo,
                "--outdir", outDir.toString(), source.toString()));
        Path log = outDir.resolve("soffice.log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("soffice did not end within " + LIMIT_SECONDS + " s: " + String.join(" ", command)
                    + "\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        String name = source.getFileName().toString().replaceFirst("\\.[^.]*$", "") + extension;
        Path written = outDir.resolve(name);
        if (p.exitValue() != 0 || !Files.isRegularFile(written)) {
            try (Stream<Path> files = Files.list(outDir)) {
                throw new AssertionError("soffice exited " + p.exitValue() + " without writing " + written + " (folder: "
                        + files.map(f -> f.getFileName().toString()).toList() + "): " + String.join(" ", command) + "\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
        }
        return written;
    }
}
