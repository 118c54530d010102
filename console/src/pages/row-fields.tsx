import { useEffect, useState } from 'preact/hooks';
import { Field, useId } from '../components.js';
import { mayBeValueOf, rowTitle, segment, textOf, type Row, type TableCatalog, type TableInfo } from './data-model.js';

/** How many parent rows a picker offers at once. */
const PICKER_ROWS = 10;
/** Typing pauses this long before the picker asks the API. */
const SEARCH_DELAY_MS = 250;

/** A column a logic rule computes: shown as text, never an input (the API would refuse a value for it). */
export function DerivedField(props: { label: string; name: string; value: string; hint?: string }) {
  return (
    <Field label={props.label} name={props.name} hint={props.hint}>
      {(id) => (
        <output id={id} class="derived" aria-live="off">
          {props.value === '' ? 'computed by a rule' : props.value}
        </output>
      )}
    </Field>
  );
}

/**
 * A foreign key column as a type-ahead over its parent's rows: typing searches the parent (its label column, or its
 * key) through the data API with the data token, so it offers only rows that token may read; picking one puts its key
 * in the field. The field stays free text (a key typed in is sent as it is, and the API says beside the field when no
 * such parent exists), and shows which parent row its value names.
 */
export function ForeignKeyPicker(props: {
  catalog: TableCatalog;
  parent: string;
  parentColumn: string;
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  hint?: string;
  disabled?: boolean;
}) {
  const { catalog, parent, parentColumn } = props;
  /** undefined while it loads; null when the token may not describe the parent. */
  const [parentTable, setParentTable] = useState<TableInfo | null>();
  const [search, setSearch] = useState<string>();
  const [options, setOptions] = useState<Row[]>();
  const [active, setActive] = useState(-1);
  const [named, setNamed] = useState<string>();
  const listId = useId(`${props.name}-options`);

  useEffect(() => {
    void catalog.table(parent).then((table) => setParentTable(table ?? null));
  }, [catalog, parent]);

  // Which parent row the value names (its label), read once typing pauses.
  useEffect(() => {
    setNamed(undefined);
    if (!parentTable || props.value.trim() === '') return;
    const byKey = parentTable.primaryKey.length === 1 && parentTable.primaryKey[0] === parentColumn;
    const column = parentTable.columns.find((c) => c.name === parentColumn);
    if (!byKey || !mayBeValueOf(column, props.value.trim())) return;
    const state = { cancelled: false };
    const timer = setTimeout(() => {
      catalog.data.get<Row[]>(`${segment(parentTable.name)}/${segment(props.value.trim())}`).then(
        (rows) => !state.cancelled && setNamed(rows[0] ? rowTitle(parentTable, rows[0]) : `no ${parent} with this key`),
        () => undefined,
      );
    }, SEARCH_DELAY_MS);
    return () => {
      state.cancelled = true;
      clearTimeout(timer);
    };
  }, [parentTable, props.value]);

  useEffect(() => {
    if (!parentTable || search === undefined) return;
    const state = { cancelled: false };
    const timer = setTimeout(() => {
      void catalog.search(parentTable, parentColumn, search, PICKER_ROWS).then((rows) => {
        if (state.cancelled) return;
        setOptions(rows);
        setActive(rows.length > 0 ? 0 : -1);
      });
    }, SEARCH_DELAY_MS);
    return () => {
      state.cancelled = true;
      clearTimeout(timer);
    };
  }, [parentTable, search]);

  const close = () => {
    setSearch(undefined);
    setOptions(undefined);
    setActive(-1);
  };
  const choose = (row: Row) => {
    props.onInput(textOf(row[parentColumn]));
    close();
  };
  const expanded = options !== undefined && search !== undefined;
  const optionId = (index: number) => `${listId}-${index}`;
  const hint = [
    props.hint,
    parentTable === null ? `refers to ${parent} (not described for this token)` : `refers to ${parent}: type to search`,
  ]
    .filter(Boolean)
    .join('; ');

  return (
    <Field label={props.label} name={props.name} error={props.error} hint={hint}>
      {(id, describedBy) => (
        <div class="picker">
          <input
            id={id}
            name={props.name}
            value={props.value}
            disabled={props.disabled}
            autocomplete="off"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
            aria-invalid={props.error ? 'true' : undefined}
            aria-describedby={describedBy}
            onInput={(event) => {
              props.onInput(event.currentTarget.value);
              setSearch(event.currentTarget.value);
            }}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                if (!expanded) setSearch(props.value);
                else if (options.length > 0) setActive((active + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
              } else if (event.key === 'Enter' && expanded && options[active]) {
                event.preventDefault();
                choose(options[active]);
              } else if (event.key === 'Escape' && expanded) {
                event.preventDefault();
                close();
              }
            }}
            onBlur={close}
          />
          {!props.disabled && parentTable && (
            <button
              type="button"
              class="link"
              aria-label={`Choose from ${parent}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                setSearch('');
                document.getElementById(id)?.focus();
              }}
            >
              Choose
            </button>
          )}
          {named && <small class="picked">{named}</small>}
          <ul id={listId} role="listbox" aria-label={`${parent} rows`} class="options" hidden={!expanded}>
            {expanded && options.length === 0 && <li class="hint">No {parent} found.</li>}
            {expanded &&
              options.map((row, index) => (
                <li
                  key={index}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  // mousedown, not click: the input's blur would close the list first.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(row);
                  }}
                >
                  {parentTable ? rowTitle(parentTable, row) : textOf(row[parentColumn])}
                </li>
              ))}
          </ul>
        </div>
      )}
    </Field>
  );
}
