import { Button, FileInput, Group, Progress, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from './file-size.js';

export interface UploadState {
  started: boolean;
  success: boolean;
  failed: boolean;
  progress: number;
}

/**
 * File picker: images and PDF by default, one file unless `multiple`;
 * 'Soumettre' uploads with progress; a failure only sets the failed flag.
 */
export function FilePicker({
  label,
  accept = 'image/*,application/pdf',
  multiple = false,
  upload,
}: {
  label: string;
  accept?: string;
  multiple?: boolean;
  upload: (files: File[], onProgress: (percent: number) => void) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [state, setState] = useState<UploadState>({
    started: false,
    success: false,
    failed: false,
    progress: 0,
  });
  const submit = async () => {
    setState({ started: true, success: false, failed: false, progress: 0 });
    try {
      await upload(files, (progress) => setState((s) => ({ ...s, progress })));
      setState({ started: false, success: true, failed: false, progress: 100 });
    } catch {
      setState((s) => ({ ...s, started: false, failed: true }));
    }
  };
  return (
    <div>
      <Group align="flex-end">
        <FileInput
          label={label}
          placeholder={t('selectFile')}
          accept={accept}
          multiple={multiple as false}
          clearable
          disabled={!multiple && files.length > 0 && state.success}
          onChange={(value: File | File[] | null) =>
            setFiles(value === null ? [] : Array.isArray(value) ? value : [value])
          }
          style={{ flex: 1 }}
        />
        <Button
          leftSection={<IconUpload size={16} aria-hidden />}
          disabled={files.length === 0 || state.started}
          onClick={submit}
        >
          {t('submit')}
        </Button>
      </Group>
      {files.map((file) => (
        <Text key={file.name} size="xs" c="dark.5">
          {file.name} — {t('size')} {formatFileSize(file.size)}
        </Text>
      ))}
      {(state.started || state.success) && (
        <Progress value={state.progress} mt="xs" aria-label={t('fileLoaded')} />
      )}
    </div>
  );
}
