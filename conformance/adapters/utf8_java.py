#!/usr/bin/python3
"""utf8 adapter: the JDK's strict UTF-8 CharsetDecoder (Utf8Java.java, compiled once into
the adapter cache by java_classes.py), one JVM per case. Usage: utf8_java.py FILE."""
import os
import sys

from java_classes import HERE, compiled_classes

classes = compiled_classes(os.path.join(HERE, "Utf8Java.java"), "utf8-java")
os.execvp("java", ["java", "-Xmx64m", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classes, "Utf8Java", sys.argv[1]])
