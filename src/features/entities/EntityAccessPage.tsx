import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import {
  Alert,
  Box,
  Button,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useRef, useState } from 'react';
import {
  type Control,
  Controller,
  type UseFormSetValue,
  useFieldArray,
  useWatch,
} from 'react-hook-form';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { messages } from '@common/messages';
import type { Entity, EntityField } from '@common/schemas/entities';
import {
  CREATED_BY,
  POLICY_ACTIONS,
  POLICY_OPS,
  type PolicyAction,
} from '@common/schemas/policies';
import type { Role } from '@common/schemas/roles';
import { PermissionGate } from '@/auth/PermissionGate';
import { EditNotices } from '@/components/EditNotices';
import { Editors } from '@/components/Editors';
import { FormTextField } from '@/components/FormTextField';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { t as translate, useT } from '@/i18n/useT';
import { useGetEntityQuery } from './entities.api';
import { EntityTabs } from './EntityTabs';
import {
  ACCESS_LEVELS,
  type AccessFormValues,
  type PolicyForm,
  SCOPES,
  blankClause,
} from './policyForm';
import { useAccessForm } from './useAccessForm';

type AccessControl = Control<AccessFormValues, unknown, unknown>;

const fieldLabel = (field: EntityField) => field.label || field.name;

/** A role's policy in a line, for the comparison of two versions: `Read: Created by is $me`. */
function policySummary(policy: PolicyForm, fields: readonly EntityField[], t = translate) {
  const nameOf = (name: string) => {
    const field = fields.find((one) => one.name === name);
    return field ? fieldLabel(field) : name === CREATED_BY ? t('access.createdBy') : name;
  };
  const parts = POLICY_ACTIONS.flatMap((action) => {
    const { scope, clauses } = policy[action];
    if (scope === 'every') return [];
    const said = clauses.map(({ field, op, value }) =>
      t('access.clauseText', { field: nameOf(field), op: t(`access.op.${op}`), value }),
    );
    return [
      t('access.actionText', {
        action,
        clauses: said.join(scope === 'all' ? t('access.and') : t('access.or')),
      }),
    ];
  });
  const restricted = Object.entries(policy.fields).filter(([, level]) => level !== 'full');
  if (restricted.length)
    parts.push(
      restricted
        .map(([name, level]) => t('access.fieldText', { field: nameOf(name), level }))
        .join(', '),
    );
  return parts.join('; ') || t('access.noRestriction');
}

interface ConditionEditorProps {
  control: AccessControl;
  setValue: UseFormSetValue<AccessFormValues>;
  index: number;
  action: PolicyAction;
  fields: readonly EntityField[];
}

/**
 * Which records a role's action may touch: every one, or those meeting all or any of a list
 * of clauses (a field, a comparison, a value). The first clause comes with the choice of a
 * condition; removing the last one goes back to every record.
 */
function ConditionEditor({ control, setValue, index, action, fields }: ConditionEditorProps) {
  const t = useT();
  const at = `policies.${index}.${action}` as const;
  const scope = useWatch({ control, name: `${at}.scope` });
  const clauses = useFieldArray({ control, name: `${at}.clauses` });
  const ops = useWatch({ control, name: `${at}.clauses` });
  // Where the keyboard goes when a clause is removed: the next way on from there.
  const scopeInput = useRef<HTMLInputElement>(null);
  const addClause = useRef<HTMLButtonElement>(null);
  const known = (name: string) =>
    name === CREATED_BY || fields.some((field) => field.name === name);
  return (
    <Stack spacing={1} role="group" aria-label={t('access.actionGroup', { action })}>
      <Controller
        control={control}
        name={`${at}.scope`}
        render={({ field }) => (
          <TextField
            select
            label={t('access.scopeOf', { action })}
            value={field.value}
            onChange={(event) => {
              field.onChange(event.target.value);
              if (event.target.value !== 'every' && clauses.fields.length === 0)
                clauses.append(blankClause());
            }}
            onBlur={field.onBlur}
            inputRef={(input: HTMLInputElement | null) => {
              field.ref(input);
              scopeInput.current = input;
            }}
            // A long choice (in French) wraps rather than being cut short on a phone.
            sx={{ maxWidth: 360, '& .MuiSelect-select': { whiteSpace: 'normal' } }}
          >
            {SCOPES.map((one) => (
              <MenuItem key={one} value={one}>
                {t(`access.scope.${one}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      {scope !== 'every' &&
        clauses.fields.map((clause, number) => {
          const place = `${at}.clauses.${number}` as const;
          const { op, field } = ops[number] ?? {};
          return (
            <Stack
              key={clause.id}
              role="group"
              aria-label={t('access.clause', { action, number: number + 1 })}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1}
              sx={{
                ml: { sm: 2 },
                pl: 1.5,
                borderLeft: 2,
                borderColor: 'divider',
                alignItems: { sm: 'flex-start' },
              }}
            >
              <FormTextField
                select
                control={control}
                name={`${place}.field`}
                label={t('access.field')}
                hint={field && !known(field) ? t('access.goneFieldHint') : undefined}
                sx={{ minWidth: 160 }}
              >
                {field && !known(field) && (
                  <MenuItem value={field}>{t('access.goneField', { name: field })}</MenuItem>
                )}
                <MenuItem value={CREATED_BY}>{t('access.createdBy')}</MenuItem>
                {fields.map((field) => (
                  <MenuItem key={field.name} value={field.name}>
                    {fieldLabel(field)}
                  </MenuItem>
                ))}
              </FormTextField>
              <Controller
                control={control}
                name={`${place}.op`}
                render={({ field, fieldState }) => (
                  <TextField
                    select
                    label={t('access.comparison')}
                    value={field.value}
                    onChange={(event) => {
                      // "Is empty" takes yes or no; the others a value typed.
                      if (event.target.value === 'empty') setValue(`${place}.value`, 'true');
                      else if (field.value === 'empty') setValue(`${place}.value`, '');
                      field.onChange(event.target.value);
                    }}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    error={Boolean(fieldState.error)}
                    helperText={fieldState.error?.message}
                    sx={{ minWidth: 150 }}
                  >
                    {POLICY_OPS.map((one) => (
                      <MenuItem key={one} value={one}>
                        {t(`access.op.${one}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              {op === 'empty' ? (
                <FormTextField
                  select
                  control={control}
                  name={`${place}.value`}
                  label={t('access.value')}
                  sx={{ minWidth: 120 }}
                >
                  <MenuItem value="true">{t('access.yes')}</MenuItem>
                  <MenuItem value="false">{t('access.no')}</MenuItem>
                </FormTextField>
              ) : (
                <FormTextField
                  control={control}
                  name={`${place}.value`}
                  label={t('access.value')}
                  hint={
                    op === 'in'
                      ? t('access.listHint')
                      : field === CREATED_BY
                        ? t('access.meHint')
                        : undefined
                  }
                  sx={{ flex: 1 }}
                />
              )}
              <IconButton
                aria-label={t('access.removeClause', { action, number: number + 1 })}
                onClick={() => {
                  clauses.remove(number);
                  if (clauses.fields.length === 1) {
                    setValue(`${at}.scope`, 'every');
                    scopeInput.current?.focus();
                  } else addClause.current?.focus();
                }}
                sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
              >
                <RemoveIcon />
              </IconButton>
            </Stack>
          );
        })}
      {scope !== 'every' && (
        <Button
          ref={addClause}
          startIcon={<AddIcon />}
          onClick={() => clauses.append(blankClause())}
          sx={{ alignSelf: 'flex-start', ml: { sm: 2 } }}
        >
          {t('access.addClause', { action })}
        </Button>
      )}
    </Stack>
  );
}

interface PolicyEditorProps {
  control: AccessControl;
  setValue: UseFormSetValue<AccessFormValues>;
  index: number;
  role: string;
  fields: readonly EntityField[];
  onRemove(): void;
}

/** One role's policy: a condition per action, then what each field is to the role. */
function PolicyEditor({ control, setValue, index, role, fields, onRemove }: PolicyEditorProps) {
  const t = useT();
  const headingId = `policy-${index}`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id={headingId} variant="h6" component="h2">
          {t('access.policyOf', { role })}
        </Typography>
        <Button color="error" onClick={onRemove}>
          {t('access.remove', { role })}
        </Button>
      </Stack>
      <Stack spacing={2}>
        {POLICY_ACTIONS.map((action) => (
          <ConditionEditor
            key={action}
            control={control}
            setValue={setValue}
            index={index}
            action={action}
            fields={fields}
          />
        ))}
        <Typography variant="subtitle1" component="h3">
          {t('access.fields')}
        </Typography>
        <Box
          sx={{
            display: 'grid',
            gap: 1,
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(220px, 1fr))' },
          }}
        >
          {fields.map((field) => (
            <FormTextField
              key={field.name}
              select
              control={control}
              name={`policies.${index}.fields.${field.name}`}
              label={fieldLabel(field)}
            >
              {ACCESS_LEVELS.map((level) => (
                <MenuItem key={level} value={level}>
                  {t(`access.level.${level}`)}
                </MenuItem>
              ))}
            </FormTextField>
          ))}
        </Box>
      </Stack>
    </Paper>
  );
}

/** The Access form of one entity: a policy per role, roles added from `roleNames`. */
function AccessForm({ entity, roleNames }: { entity: Entity; roleNames: readonly string[] }) {
  const t = useT();
  const { form, policies, edit, ...controller } = useAccessForm(entity);
  const [adding, setAdding] = useState('');
  const addable = controller.rolesWithout(roleNames);
  const addFor = useRef<HTMLInputElement>(null);
  return (
    <Paper component="section" sx={{ maxWidth: 960, p: { xs: 2, sm: 3 } }}>
      <PageHeader title={t('access.title', { name: entity.name })} />
      <EntityTabs entity={entity} current="access" />
      <Typography sx={{ mb: 2 }}>{t('access.intro')}</Typography>
      <Stack
        component="form"
        spacing={2}
        onSubmit={controller.submit}
        noValidate
        aria-label={t('access.form', { name: entity.name })}
      >
        {controller.saved && (
          <Alert severity="success" role="alert">
            {t('access.saved')}
          </Alert>
        )}
        <Editors
          editors={edit.editors}
          nameOf={() => t('entities.thisEntity')}
          ids={[entity._id]}
        />
        <EditNotices
          edit={edit}
          nameOf={() => t('entities.theEntity', { name: entity.name })}
          shownValues={(values) =>
            Object.fromEntries(
              Object.entries(values).map(([role, policy]) => [
                role,
                policy ? policySummary(policy, entity.fields, t) : t('access.noPolicy'),
              ]),
            )
          }
          labelOf={(role) => t('access.policyOf', { role })}
        />
        {form.failure && (
          <Alert severity="error" role="alert">
            {form.failure}
          </Alert>
        )}
        {policies.fields.length === 0 && <Typography>{t('access.none')}</Typography>}
        {policies.fields.map((policy, index) => (
          <PolicyEditor
            key={policy.id}
            control={form.control}
            setValue={form.setValue}
            index={index}
            role={policy.role}
            fields={entity.fields}
            onRemove={() => {
              policies.remove(index);
              // The keyboard goes to adding a policy, enabled once the role is free again.
              requestAnimationFrame(() => addFor.current?.focus());
            }}
          />
        ))}
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ alignItems: { sm: 'center' } }}
        >
          <TextField
            select
            label={t('access.addFor')}
            inputRef={addFor}
            value={addable.includes(adding) ? adding : ''}
            onChange={(event) => setAdding(event.target.value)}
            disabled={addable.length === 0}
            helperText={addable.length === 0 ? t('access.everyRoleHasOne') : undefined}
            sx={{ minWidth: 220 }}
          >
            {addable.map((name) => (
              <MenuItem key={name} value={name}>
                {name}
              </MenuItem>
            ))}
          </TextField>
          <Button
            startIcon={<AddIcon />}
            disabled={!addable.includes(adding)}
            onClick={() => {
              controller.addPolicy(adding);
              setAdding('');
            }}
            sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
          >
            {t('access.add')}
          </Button>
        </Stack>
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={controller.isSaving}>
            {t('common.save')}
          </Button>
          <Button component={RouterLink} to="/entities">
            {t('entities.back')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** The entity whose access is edited, loaded through the shared states. */
function EntityAccess({ entityId, roles }: { entityId: string; roles?: Role[] }) {
  const t = useT();
  const entityQuery = useGetEntityQuery(entityId);
  useReportedError(messages.entities.fetchContext, entityQuery.error);
  // Without the role list, the roles that have a policy can still be edited.
  const roleNames = (roles ?? []).map((role) => role.name);
  return (
    <QueryState
      query={entityQuery}
      what={t('entities.whatOne')}
      notFound={{
        message: t('entities.noSuchId'),
        back: { label: t('entities.seeAll'), to: '/entities' },
      }}
    >
      {(entity) => <AccessForm key={entity._id} entity={entity} roleNames={roleNames} />}
    </QueryState>
  );
}

/**
 * `/entities/edit/:entityId/access`: who may see and change which records and fields of the
 * entity, for whoever may write its policies (admins by default). `roles`, the roles to
 * offer, come from the roles feature (composed in app/).
 */
export function EntityAccessPage({ roles }: { roles?: Role[] }) {
  const t = useT();
  const { entityId = '' } = useParams();
  return (
    <PermissionGate verb="PUT" path="/api/entities/:id/policies" what={t('access.editing')}>
      <PermissionGate verb="GET" path="/api/entities/:idOrName" what={t('entities.reading')}>
        <EntityAccess key={entityId} entityId={entityId} roles={roles} />
      </PermissionGate>
    </PermissionGate>
  );
}
