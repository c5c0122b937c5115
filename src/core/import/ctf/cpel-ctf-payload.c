/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-payload.c — a CTF event's payload as text (moved out of
 * cpel-ctf-trace.c; see cpel-ctf-payload.h) */
#include "cpel-ctf-payload.h"

#include <inttypes.h>

#define CTF_MAX_FIELD_DEPTH  64

static void
append_escaped (GString *s, const char *str)
{
  g_string_append_c (s, '"');
  for (const unsigned char *p = (const unsigned char *) str; *p; p++)
    {
      switch (*p)
        {
        case '\\': g_string_append (s, "\\\\"); continue;
        case '\'': g_string_append (s, "\\'"); continue;
        case '"':  g_string_append (s, "\\\""); continue;
        case '?':  g_string_append (s, "\\?"); continue;
        case '\a': g_string_append (s, "\\a"); continue;
        case '\b': g_string_append (s, "\\b"); continue;
        case 0x1b: g_string_append (s, "\\e"); continue;
        case '\f': g_string_append (s, "\\f"); continue;
        case '\n': g_string_append (s, "\\n"); continue;
        case '\r': g_string_append (s, "\\r"); continue;
        case '\t': g_string_append (s, "\\t"); continue;
        case '\v': g_string_append (s, "\\v"); continue;
        default: break;
        }
      if (*p < 0x20 || *p == 0x7f)
        g_string_append_printf (s, "\\x%02x", *p);
      else
        g_string_append_c (s, (char) *p);
    }
  g_string_append_c (s, '"');
}

static void
append_integer (GString *s, const bt_field *f)
{
  const bt_field_class *fc = bt_field_borrow_class_const (f);
  bt_field_class_type t = bt_field_get_class_type (f);
  gboolean is_unsigned = bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER);
  guint64 u;
  gint64 v = 0;
  if (is_unsigned)
    u = bt_field_integer_unsigned_get_value (f);
  else
    {
      v = bt_field_integer_signed_get_value (f);
      u = (guint64) v;
    }
  guint64 len = bt_field_class_integer_get_field_value_range (fc);
  switch (bt_field_class_integer_get_preferred_display_base (fc))
    {
    case BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_BINARY:
      g_string_append (s, "0b");
      for (guint64 b = len; b > 0; b--)
        g_string_append_c (s, ((u >> (b - 1)) & 1) ? '1' : '0');
      break;
    case BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_OCTAL:
      if (!is_unsigned && len < 64 && len > 0)
        {
          guint64 r = ((len - 1) / 3 + 1) * 3;
          if (r < 64)
            u &= (G_GUINT64_CONSTANT (1) << r) - 1;
        }
      g_string_append_printf (s, "0%" PRIo64, u);
      break;
    case BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL:
      if (len < 64)
        {
          guint64 r = (len + 3) & ~G_GUINT64_CONSTANT (3);
          if (r < 64)
            u &= (G_GUINT64_CONSTANT (1) << r) - 1;
        }
      g_string_append_printf (s, "0x%" PRIX64, u);
      break;
    default:
      if (is_unsigned)
        g_string_append_printf (s, "%" PRIu64, u);
      else
        g_string_append_printf (s, "%" PRId64, v);
      break;
    }
}


/* Members of a structure as `a = 1, b = 2` (no braces). */
void
cpel_ctf_payload_append_members (GString *s, const bt_field *f, CpelCtfFirstInt *first, guint depth)
{
  const bt_field_class *fc = bt_field_borrow_class_const (f);
  guint64 n = bt_field_class_structure_get_member_count (fc);
  for (guint64 i = 0; i < n; i++)
    {
      const bt_field_class_structure_member *m = bt_field_class_structure_borrow_member_by_index_const (fc, i);
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, bt_field_class_structure_member_get_name (m));
      g_string_append (s, " = ");
      cpel_ctf_payload_append_field (s, bt_field_structure_borrow_member_field_by_index_const (f, i), first, depth + 1);
    }
}

void
cpel_ctf_payload_append_field (GString *s, const bt_field *f, CpelCtfFirstInt *first, guint depth)
{
  if (depth > CTF_MAX_FIELD_DEPTH)
    {
      g_string_append (s, "…");
      return;
    }
  bt_field_class_type t = bt_field_get_class_type (f);
  if (t == BT_FIELD_CLASS_TYPE_BOOL)
    g_string_append (s, bt_field_bool_get_value (f) ? "true" : "false");
  else if (t == BT_FIELD_CLASS_TYPE_BIT_ARRAY)
    g_string_append_printf (s, "0x%" PRIX64, bt_field_bit_array_get_value_as_integer (f));
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_INTEGER))
    {
      if (first != NULL && !first->have)
        {
          first->have = TRUE;
          first->value = bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)
                         ? bt_field_integer_unsigned_get_value (f)
                         : (guint64) bt_field_integer_signed_get_value (f);
        }
      if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_ENUMERATION))
        {
          bt_field_class_enumeration_mapping_label_array labels = NULL;
          guint64 n = 0;
          int rc = bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION)
                   ? (int) bt_field_enumeration_unsigned_get_mapping_labels (f, &labels, &n)
                   : (int) bt_field_enumeration_signed_get_mapping_labels (f, &labels, &n);
          g_string_append (s, "( ");
          if (rc != 0 || n == 0)
            g_string_append (s, "<unknown>");
          for (guint64 i = 0; rc == 0 && i < n; i++)
            {
              if (i > 0)
                g_string_append (s, ", ");
              append_escaped (s, labels[i]);
            }
          g_string_append (s, " : container = ");
          append_integer (s, f);
          g_string_append (s, " )");
        }
      else
        append_integer (s, f);
    }
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_REAL))
    {
      double v = t == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL
                 ? bt_field_real_single_precision_get_value (f)
                 : bt_field_real_double_precision_get_value (f);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%g", v));
    }
  else if (t == BT_FIELD_CLASS_TYPE_STRING)
    {
      const char *v = bt_field_string_get_value (f);
      if (g_utf8_validate (v, -1, NULL))
        append_escaped (s, v);
      else
        {
          g_autofree char *valid = g_utf8_make_valid (v, -1);
          append_escaped (s, valid);
        }
    }
  else if (t == BT_FIELD_CLASS_TYPE_STRUCTURE)
    {
      g_string_append (s, "{");
      if (bt_field_class_structure_get_member_count (bt_field_borrow_class_const (f)) > 0)
        {
          g_string_append_c (s, ' ');
          cpel_ctf_payload_append_members (s, f, first, depth);
        }
      g_string_append (s, " }");
    }
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_OPTION))
    {
      const bt_field *o = bt_field_option_borrow_field_const (f);
      if (o == NULL)
        g_string_append (s, "<none>");
      else
        {
          g_string_append (s, "{ ");
          cpel_ctf_payload_append_field (s, o, first, depth + 1);
          g_string_append (s, " }");
        }
    }
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_VARIANT))
    {
      g_string_append (s, "{ ");
      cpel_ctf_payload_append_field (s, bt_field_variant_borrow_selected_option_field_const (f), first, depth + 1);
      g_string_append (s, " }");
    }
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_ARRAY))
    {
      guint64 n = bt_field_array_get_length (f);
      g_string_append (s, "[");
      for (guint64 i = 0; i < n; i++)
        {
          g_string_append_printf (s, "%s[%" PRIu64 "] = ", i > 0 ? ", " : " ", i);
          cpel_ctf_payload_append_field (s, bt_field_array_borrow_element_field_by_index_const (f, i), first, depth + 1);
        }
      g_string_append (s, " ]");
    }
  else
    g_string_append (s, "?");
}
