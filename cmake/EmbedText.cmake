# Turns a text file into a C string of its bytes (\x escapes), so a
# program can carry the file (flamegraph/svg_viewer.js) without reading it
# at run time. Run as a script:
#   cmake -DINPUT=in.js -DOUTPUT=out.c -DNAME=symbol -DHEADER=dir/decl.h
#         [-DFORBID=text] -P EmbedText.cmake
# FORBID names a string the file must not contain (such as "]]>" for text
# that goes inside an XML CDATA section).
file(READ ${INPUT} text)
if(DEFINED FORBID AND NOT FORBID STREQUAL "")
  string(FIND "${text}" "${FORBID}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${INPUT} must not contain '${FORBID}'")
  endif()
endif()
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" bytes "${hex}")
file(WRITE ${OUTPUT}
  "/* Generated from ${INPUT} by cmake/EmbedText.cmake: do not edit. */\n"
  "#include \"${HEADER}\"\n\n"
  "const char ${NAME}[] = \"${bytes}\";\n")
