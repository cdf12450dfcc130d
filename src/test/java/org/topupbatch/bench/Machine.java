package org.topupbatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine the figures were taken on, and how busy it is. */
final class Machine {

    private Machine() {
    }

    /** The 1, 5 and 15 minute load averages (what uptime prints). */
    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    static String describe() {
        long memMb = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memMb = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // the figure is informative only
        }
        return Runtime.getRuntime().availableProcessors() + " CPUs, " + memMb + " MB memory, Java "
                + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + "), load " + load();
    }
}
